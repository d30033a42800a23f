/** The pages' one stylesheet: plain, readable, no build step. */
export const APP_CSS = `
:root { color-scheme: light; --fg: #1d2430; --muted: #5b6575; --line: #d9dee7; --accent: #1f5fae; --bg: #f6f8fb; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
header.top { display: flex; align-items: center; gap: 1.5rem; padding: .6rem 1.2rem; background: #17202e; color: #fff; }
header.top a { color: #dbe6f7; text-decoration: none; }
header.top a:hover { text-decoration: underline; }
header.top .brand { font-weight: 700; color: #fff; }
header.top nav { display: flex; gap: 1rem; flex: 1; }
header.top .identity { display: flex; align-items: center; gap: .5rem; }
header.top button { background: none; border: 1px solid #6c7a90; color: #fff; border-radius: 4px; padding: .15rem .6rem; cursor: pointer; }
main { padding: 1.2rem; max-width: 1200px; margin: 0 auto; }
h1 { font-size: 1.4rem; margin: .2rem 0 1rem; }
a { color: var(--accent); }
pre, code, textarea { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem; overflow: auto; white-space: pre-wrap; word-break: break-word; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { border: 1px solid var(--line); padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { background: #eef2f7; }
form.inline { display: inline; margin: 0; }
label { display: block; margin: .5rem 0 .2rem; font-weight: 600; }
input[type=text], input[type=password], select, textarea { width: 100%; padding: .4rem; border: 1px solid var(--line); border-radius: 4px; }
button { padding: .35rem .9rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
.muted { color: var(--muted); }
.error { color: #a4161a; }
`;
