/**
 * Starts Swagger UI on /api/schema/swagger-ui/ (a file, as the pages' CSP allows no inline code).
 * The page names the document's URL in `data-schema-url` on `#swagger-ui`.
 */
export const SWAGGER_INIT_JS = `"use strict";
window.addEventListener("DOMContentLoaded", function () {
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-schema-url"),
    dom_id: "#swagger-ui",
    deepLinking: true,
    persistAuthorization: true,
    tryItOutEnabled: false,
    displayRequestDuration: true,
    docExpansion: "none",
    filter: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout"
  });
});
`;
