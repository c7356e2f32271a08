"use strict";
/* The API page: each path of /openapi.json with its methods and summary. */
document.addEventListener("DOMContentLoaded", async () => {
  const spec = await api("/openapi.json");
  const box = $("paths");
  box.innerHTML = "";
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const item = document.createElement("div");
      item.className = "panel";
      const head = document.createElement("h2");
      head.textContent = `${method.toUpperCase()} ${path}`;
      const text = document.createElement("p");
      withCode(text, op.description || op.summary || "");
      item.append(head, text);
      const body = op.requestBody && op.requestBody.content;
      if (body) {
        const kind = Object.keys(body)[0];
        const ref = (body[kind].schema || {}).$ref || "";
        const name = ref.split("/").pop();
        const schema = (spec.components.schemas || {})[name];
        if (schema && schema.properties) {
          const fields = document.createElement("p");
          fields.className = "muted";
          fields.textContent = `${kind} fields: ` + Object.keys(schema.properties).join(", ");
          item.append(fields);
        }
      }
      box.append(item);
    }
  }
});

/* ``text`` in a docstring (the code's literal markup) shown as code, the rest as text. */
function withCode(element, text) {
  text.split("``").forEach((part, index) => {
    if (index % 2 === 1) {
      const code = document.createElement("code");
      code.textContent = part;
      element.append(code);
    } else {
      element.append(part);
    }
  });
}
