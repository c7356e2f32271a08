"use strict";
/* Shared helpers: JSON requests, errors, and SVG drawing. */
const SVG_NS = "http://www.w3.org/2000/svg";

function $(id) { return document.getElementById(id); }

function svg(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function showError(message) {
  const box = $("error");
  if (!box) return;
  box.textContent = message || "";
  box.hidden = !message;
  // The last answer shown is not the answer to what failed: greyed until the next one.
  document.body.classList.toggle("failed", Boolean(message));
}

async function api(path, body, method) {
  const options = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body instanceof FormData) options.body = body;
  else if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const message = (data && data.error) || `request failed (${response.status})`;
    throw new Error(message);
  }
  return data;
}

async function fillScenarios(select) {
  const data = await api("/api/scenarios");
  select.innerHTML = "";
  for (const name of data.scenarios) {
    const option = document.createElement("option");
    option.value = name; option.textContent = name;
    select.appendChild(option);
  }
  return data;
}

/* The non-empty lines of a text box, trimmed (one --rule or --set flag a line). */
function lines(text) { return text.split("\n").map(s => s.trim()).filter(Boolean); }

/* A scenario the list's server files do not hold (an upload, a log's own): its own entry
   of class ``kind``, disabled and chosen, reading ``text``; the entry of that kind shown
   before is removed first, and a ``text`` of null only removes it. */
function showForeignScenario(select, kind, text) {
  for (const old of select.querySelectorAll(`option.${kind}`)) old.remove();
  if (text === null) return;
  const option = document.createElement("option");
  option.className = kind; option.value = ""; option.disabled = true;
  option.textContent = text;
  select.prepend(option);
  select.value = "";
}

/* Select the scenario a page's address names, if the server offers it; else keep the
   list's first and give back what to say (setting a value the list does not hold blanked
   the box, and the next request asked for scenario ''). */
function chooseScenario(select, wanted) {
  if (!wanted) return null;
  if ([...select.options].some(option => option.value === wanted)) {
    select.value = wanted;
    return null;
  }
  return `no scenario '${wanted}' on this server: pick one from the list`;
}

/* The width to draw a chart in: its box's own, so that the SVG is not scaled and its
   text keeps the page's sizes (a 640-wide drawing on a phone shrank it to 6 px). */
function chartWidth(container) {
  return Math.max(280, Math.round(container.clientWidth || 640));
}

/* A bar chart of several series over 0..n, each with a cumulative "at least" line. */
function barChart(container, series, xLabel) {
  const width = chartWidth(container), height = Math.min(280, Math.round(width * 0.6));
  const left = 44, bottom = 34, top = 10, right = 10;
  container.innerHTML = "";
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" }, container);
  const n = Math.max(...series.map(s => s.values.length));
  const plotW = width - left - right, plotH = height - top - bottom;
  const colours = ["#2c5aa0", "#b8432f", "#2e7d32", "#8e44ad", "#c07f00", "#00838f"];
  const x = i => left + (i + 0.5) * plotW / n;
  const y = p => top + plotH * (1 - p);
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    svg("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), stroke: "#e3e7eb" }, root);
    const label = svg("text", { x: left - 4, y: y(tick) + 4, "text-anchor": "end", "font-size": 11, fill: "#5c6670" }, root);
    label.textContent = `${Math.round(tick * 100)}%`;
  }
  const band = plotW / n * 0.8, each = band / series.length;
  series.forEach((s, k) => {
    const colour = colours[k % colours.length];
    s.values.forEach((p, i) => {
      const bar = svg("rect", { x: x(i) - band / 2 + k * each, y: y(p), width: Math.max(each - 1, 1),
                                height: Math.max(plotH * p, 0), fill: colour, "fill-opacity": 0.75 }, root);
      svg("title", {}, bar).textContent = `${s.label}: exactly ${i}: ${(p * 100).toFixed(2)}%`;
    });
    let left_ = 1; const points = [];
    s.values.forEach((p, i) => { points.push(`${x(i)},${y(Math.max(left_, 0))}`); left_ -= p; });
    svg("polyline", { points: points.join(" "), fill: "none", stroke: colour, "stroke-width": 2 }, root);
  });
  const step = Math.ceil(n / Math.max(2, Math.floor(plotW / 28)));
  for (let i = 0; i < n; i += step) {
    const label = svg("text", { x: x(i), y: height - bottom + 14, "text-anchor": "middle", "font-size": 11, fill: "#5c6670" }, root);
    label.textContent = i;
  }
  const caption = svg("text", { x: left + plotW / 2, y: height - 4, "text-anchor": "middle", "font-size": 12, fill: "#1d232a" }, root);
  caption.textContent = xLabel;
  if (series.length > 1) {
    /* Below the chart, never over its bars and lines; whole labels, wrapped. */
    const legend = document.createElement("ul");
    legend.className = "chart-legend";
    series.forEach((s, k) => {
      const item = document.createElement("li");
      const swatch = document.createElement("span");
      swatch.className = "swatch"; swatch.style.background = colours[k % colours.length];
      item.append(swatch, s.label);
      legend.appendChild(item);
    });
    container.appendChild(legend);
  }
  return root;
}

/* A form the browser itself refuses (a number out of bounds) sends nothing: an error
   still shown is from an earlier request, not about this one, so it goes. */
document.addEventListener("invalid", () => showError(""), true);
