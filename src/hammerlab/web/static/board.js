"use strict";
/* The battlefield as SVG: terrain, and each model on its base, coloured by side,
   with its wounds left; casualties fade out. Shared by the viewer and the play page. */
const SIDE_COLOURS = ["#2c5aa0", "#b8432f"];

function drawBoard(container, table) {
  container.innerHTML = "";
  const root = svg("svg", { viewBox: `0 0 ${table.width} ${table.height}`, role: "img" }, container);
  svg("rect", { x: 0, y: 0, width: table.width, height: table.height, fill: "#e8e3d3" }, root);
  // Table y grows north; SVG y grows down: flip.
  const flip = svg("g", { transform: `translate(0 ${table.height}) scale(1 -1)` }, root);
  for (const area of table.terrain) {
    const shape = svg("polygon", {
      points: area.outline.map(p => p.join(",")).join(" "),
      fill: area.blocks_sight ? "#7d7468" : "#9fb88a", "fill-opacity": 0.8, stroke: "#5c5346", "stroke-width": 0.15,
    }, flip);
    svg("title", {}, shape).textContent = `${area.name}${area.cover ? `, cover ${area.cover}+` : ""}`;
  }
  const nodes = {};
  for (const unit of table.units) {
    const colour = SIDE_COLOURS[Math.max(0, table.players.indexOf(unit.player)) % 2];
    for (const model of unit.models) {
      const g = svg("g", { class: "model", "data-model": model.id, "data-unit": unit.id }, flip);
      const base = svg("circle", { r: model.radius, fill: colour, stroke: "#fff", "stroke-width": 0.08 }, g);
      const label = svg("text", { "font-size": Math.max(model.radius, 0.45), "text-anchor": "middle", fill: "#fff",
                                  transform: "scale(1 -1)" }, g);
      svg("title", {}, base).textContent = `${model.id} ${model.name} (${unit.label})`;
      nodes[model.id] = { g, label, model: { ...model } };
    }
  }
  return nodes;
}

/* Put each model where ``state`` says, with its wounds left; dead ones fade. */
function placeModels(nodes, state) {
  for (const [id, node] of Object.entries(nodes)) {
    const m = state[id];
    node.g.setAttribute("transform", `translate(${m.x} ${m.y})`);
    node.label.setAttribute("y", -m.radius * -0.35);
    node.label.textContent = m.wounds > 1 ? m.wounds : "";
    node.g.classList.toggle("dead", m.wounds <= 0);
  }
}

function startState(table) {
  const state = {};
  for (const unit of table.units) for (const m of unit.models) state[m.id] = { ...m };
  return state;
}

/* Apply one event (JSON form) to the state: moves, wounds and casualties. */
function applyEvent(state, event) {
  const m = state[event.model];
  if (!m) return;
  if (event.kind === "move") { m.x = event.end[0]; m.y = event.end[1]; }
  else if (event.kind === "wound") m.wounds = event.left;
  else if (event.kind === "casualty") m.wounds = 0;
}
