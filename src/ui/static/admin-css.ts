/** The webhook delivery admin's styles, on top of the shared stylesheet. */
export const ADMIN_CSS = `
.admin-summary { display: flex; gap: 1rem; flex-wrap: wrap; margin: 0 0 1rem; }
.admin-summary .stat { background: #fff; border: 1px solid var(--line, #d9dee7); border-radius: 6px; padding: .6rem 1rem; min-width: 11rem; }
.admin-summary .stat .value { display: block; font-size: 1.5rem; font-weight: 700; }
.admin-summary .stat .label { color: var(--muted, #5b6575); font-size: .85rem; }
form.admin-filters { display: flex; gap: .8rem; align-items: flex-end; flex-wrap: wrap; margin: 0 0 1rem; }
form.admin-filters label { margin: 0; font-size: .85rem; }
form.admin-filters select { width: auto; min-width: 11rem; display: block; margin-top: .2rem; }
.admin-toolbar { display: flex; gap: .8rem; align-items: center; margin: 0 0 .6rem; }
.admin-toolbar .spacer { flex: 1; }
main:has(table.deliveries) { max-width: 1600px; }
.table-scroll { overflow-x: auto; }
table.deliveries td, table.deliveries th { font-size: .85rem; }
table.deliveries td.error-cell { min-width: 14rem; max-width: 22rem; color: #a4161a; overflow-wrap: anywhere; }
table.deliveries .object-type { display: block; font-size: .8rem; }
table.deliveries time { font-variant-numeric: tabular-nums; }
table.deliveries td.nowrap, table.deliveries th.nowrap { white-space: nowrap; }
.status { display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 600; border: 1px solid transparent; }
.status-queued { background: #fff4d6; color: #7a5200; border-color: #f0d48a; }
.status-succeeded { background: #e3f5e8; color: #1d6b34; border-color: #a8dcb6; }
.status-failed { background: #fde7e7; color: #a4161a; border-color: #f2b0b0; }
button.secondary { background: #fff; color: var(--accent, #1f5fae); }
button:disabled { opacity: .55; cursor: default; }
button.small { padding: .1rem .6rem; font-size: .85rem; }
.admin-message { margin: 0 0 1rem; padding: .5rem .8rem; border-radius: 6px; background: #e8f0fb; border: 1px solid #b8cdeb; }
.admin-message.error { background: #fde7e7; border-color: #f2b0b0; color: #a4161a; }
.admin-message:empty { display: none; }
.pager { display: flex; gap: 1rem; align-items: center; margin: .8rem 0; }
dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1.2rem; background: #fff; border: 1px solid var(--line, #d9dee7); border-radius: 6px; padding: .8rem 1rem; margin: 0 0 1rem; }
dl.fields dt { font-weight: 600; color: var(--muted, #5b6575); }
dl.fields dd { margin: 0; overflow-wrap: anywhere; }
section.panel { margin: 0 0 1.2rem; }
section.panel h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
section.panel h3 { font-size: .95rem; margin: .8rem 0 .4rem; }
section.panel pre { max-height: 28rem; }
table.headers td:first-child { white-space: nowrap; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
table.headers td { font-size: .85rem; overflow-wrap: anywhere; }
`;
