/** The pages' one stylesheet: plain, readable, no build step. */
export const APP_CSS = `
:root { color-scheme: light; --fg: #1d2430; --muted: #5b6575; --line: #d9dee7; --accent: #1f5fae; --bg: #f6f8fb; --ok: #1b7a3d; --bad: #a4161a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header.top { display: flex; align-items: center; gap: 1.5rem; padding: .6rem 1.2rem; background: #17202e; color: #fff; }
header.top a { color: #dbe6f7; text-decoration: none; }
header.top a:hover { text-decoration: underline; }
header.top .brand { font-weight: 700; color: #fff; }
header.top nav { display: flex; gap: 1rem; flex: 1; }
header.top .identity { display: flex; align-items: center; gap: .5rem; }
header.top button { background: none; border: 1px solid #6c7a90; color: #fff; border-radius: 4px; padding: .15rem .6rem; cursor: pointer; }
main { padding: 1.2rem; max-width: 1280px; margin: 0 auto; }
:where(main.plain) h1 { font-size: 1.4rem; margin: .2rem 0 1rem; overflow-wrap: anywhere; }
:where(main.plain) h2 { font-size: 1.05rem; margin: 0 0 .6rem; }
:where(main.plain) a { color: var(--accent); }
:where(main.plain) pre, :where(main.plain) code, :where(main.plain) textarea { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
:where(main.plain) pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem; overflow: auto; white-space: pre-wrap; word-break: break-word; margin: 0 0 .8rem; }
:where(main.plain) table { border-collapse: collapse; width: 100%; background: #fff; }
:where(main.plain) th, :where(main.plain) td { border: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
:where(main.plain) th { background: #eef2f7; }
form.inline { display: inline; margin: 0; }
:where(main.plain) label { display: block; margin: .5rem 0 .2rem; font-weight: 600; }
:where(main.plain) input[type=text], :where(main.plain) input[type=password], :where(main.plain) input[type=search], :where(main.plain) select, :where(main.plain) textarea { width: 100%; padding: .4rem; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
:where(main.plain) button { padding: .35rem .9rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
:where(main.plain) button:disabled { opacity: .6; cursor: wait; }
:where(main.plain) button.danger { background: var(--bad); border-color: var(--bad); }
.muted { color: var(--muted); }
.error { color: var(--bad); }
.intro { color: var(--muted); margin: -.4rem 0 1rem; max-width: 60rem; }
.notice { background: #fff7e0; border: 1px solid #f0d58a; border-radius: 6px; padding: .6rem .8rem; }
.actions { margin-top: .7rem; display: flex; gap: .5rem; }

/* The browsable API */
.crumbs { font-size: .9rem; color: var(--muted); margin-bottom: .3rem; }
.crumbs a { text-decoration: none; }
.title-row { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; }
.formats a { font-size: .85rem; border: 1px solid var(--line); border-radius: 4px; padding: .1rem .5rem; background: #fff; text-decoration: none; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 21rem; gap: 1.2rem; align-items: start; }
.layout > .response:only-child { grid-column: 1 / -1; }
.request-line { margin-bottom: .4rem; }
.request-line .method { display: inline-block; font-weight: 700; font-size: .8rem; color: #fff; background: #3b4a61; border-radius: 3px; padding: .05rem .45rem; }
pre.headers { background: #fbfcfe; color: var(--muted); }
pre.headers .status { color: var(--ok); }
pre.headers .status.failed { color: var(--bad); }
pre.headers .h-name { color: var(--fg); font-weight: 600; }
pre.json { line-height: 1.5; }
.j-key { color: #7a2e8e; }
.j-str { color: #1b6b3a; }
a.j-str { color: var(--accent); }
.j-num { color: #b0521c; }
.j-bool, .j-null { color: #1f5fae; font-weight: 600; }
.pager { display: flex; align-items: center; gap: 1rem; margin: 0 0 .8rem; }
.pager .count { color: var(--muted); font-size: .9rem; }
.pager .disabled { color: #a9b1bd; }
form.search { display: flex; gap: .5rem; margin: 0 0 .8rem; }
form.search input[type=search] { flex: 1; }
aside.filters { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem; font-size: .85rem; max-height: calc(100vh - 6rem); overflow: auto; position: sticky; top: 1rem; }
aside.filters p { margin: 0 0 .6rem; }
.filter-list { display: grid; grid-template-columns: auto 1fr; gap: .15rem .6rem; margin: 0; }
.filter-list dt { font-weight: 600; }
.filter-list dd { margin: 0; color: var(--muted); font-size: .78rem; line-height: 1.7; }
section.write { margin-top: 1.2rem; display: grid; gap: 1rem; }
form.api-form { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .9rem; }
form.api-form textarea { min-height: 8rem; resize: vertical; }
form.api-form details.fields { margin-top: .8rem; font-size: .85rem; }
form.api-form.delete summary { cursor: pointer; color: var(--bad); font-weight: 600; }
pre.api-result { margin-top: .7rem; }
pre.api-result.ok { border-color: #9fd2ae; }
pre.api-result.failed { border-color: #e3a0a2; color: var(--bad); }
summary { cursor: pointer; }

/* Login and logout */
.card { max-width: 26rem; margin: 2.5rem auto; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1.4rem 1.6rem; }
.card .actions button { width: 100%; padding: .5rem; }
.card .error { background: #fdecec; border: 1px solid #f3b9bb; border-radius: 4px; padding: .45rem .6rem; }

@media (max-width: 800px) {
  .layout { grid-template-columns: 1fr; }
  aside.filters { position: static; max-height: none; }
  header.top { flex-wrap: wrap; gap: .6rem 1rem; }
}
`;
