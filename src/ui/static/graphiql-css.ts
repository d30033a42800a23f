/** The GraphiQL page's layout: GraphiQL fills the window below the shared header. Loaded by that page only. */
export const GRAPHIQL_CSS = `
html, body { height: 100%; }
body { display: flex; flex-direction: column; }
body > main { flex: 1; min-height: 0; max-width: none; width: 100%; margin: 0; padding: 0; box-sizing: border-box; }
#graphiql { height: 100%; }
`;
