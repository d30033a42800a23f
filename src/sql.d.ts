/** Migration files, bundled as text by wrangler's `Text` module rule (wrangler.toml). */
declare module "*.sql" {
  const sql: string;
  export default sql;
}
