"use strict";
/* The odds page: build the question from the form (fields named like the CLI's flags),
   POST /api/odds, draw the answer; the URL query holds the question (share link). */
const LISTS = ["keyword", "target-keyword"];
/* What the weapon list says of a weapon the odds do not take as it is (GET /api/weapons'
   "odds"): a melee weapon is listed, greyed out, never chosen. */
const FIT_NOTES = { melee: " — melee: the odds cover shooting", hits: " — give the Hits" };
const form = () => $("odds-form");
let situations = {};
let current = null;          // {query, result}
let compared = [];           // [{query, result}]: the set-ups kept beside the current one

function visibleFields() {
  const kind = $("form-kind").value, ruleset = $("ruleset").value;
  for (const node of form().querySelectorAll("[data-form]")) {
    node.hidden = !node.dataset.form.split(" ").includes(kind);
  }
  for (const node of form().querySelectorAll("[data-ruleset]")) {
    node.hidden = node.dataset.ruleset !== ruleset;
  }
}

/* Switch the page to ``ruleset`` (a person's choice, an upload's edition, a share link):
   the fields, the situation boxes, the unit names and the attacker's weapons all follow
   it, so the form never offers another edition's options. */
const EXAMPLE_UNITS = {  // each edition's own names (core11 has no "Ork Boyz")
  waffle: ["Tactical Squad", "Ork Boyz"], core11: ["Intercessor Squad", "Boyz"],
};

let uploaded = null;  // the BattleScribe file uploaded: {name, edition}

function setRuleset(ruleset, chosen) {
  $("ruleset").value = ruleset;
  // An upload's units are of one edition, which the odds (and the unit and weapon lists)
  // refuse under another: the form goes back to the library's units, and says why.
  const away = $("form-kind").value === "upload" && uploaded && uploaded.edition &&
    uploaded.edition !== ruleset;
  if (away) $("form-kind").value = "library";
  $("form-note").textContent = away ? `${uploaded.name}'s units are ${uploaded.edition} ` +
    `datasheets, which ${ruleset} odds cannot use: the form shows the library's units ` +
    `(ruleset ${uploaded.edition} takes the file's)` : "";
  const [attacker, target] = EXAMPLE_UNITS[ruleset] || EXAMPLE_UNITS.waffle;
  $("attacker").placeholder = attacker;
  $("target").placeholder = target;
  visibleFields();
  drawSituations(chosen);
  return unitsChanged();
}

/* The form changed: the file's units come with the file's ruleset, as an upload sets it. */
function formChanged() {
  $("form-note").textContent = "";
  const edition = uploaded && uploaded.edition;
  if ($("form-kind").value === "upload" && edition && edition !== $("ruleset").value) {
    return setRuleset(edition);
  }
  visibleFields();
  return unitsChanged();
}

/* Where the units come from changed (the ruleset, the form, an upload): the names offered
   and the weapon list are those of the attacker named in the new source at once. */
function unitsChanged() {
  suggestUnits("");
  return loadWeapons();
}

function drawSituations(chosen) {
  const box = $("situations");
  box.innerHTML = "";
  for (const [name, meaning] of Object.entries(situations[$("ruleset").value] || {})) {
    const label = document.createElement("label");
    label.className = "check"; label.title = meaning;
    const box_ = document.createElement("input");
    box_.type = "checkbox"; box_.name = "situation"; box_.value = name;
    box_.checked = (chosen || []).includes(name);
    label.append(box_, name);
    box.appendChild(label);
  }
}

/* The question as URL query parameters: only what is shown and filled in. */
function formQuery() {
  const query = new URLSearchParams();
  query.set("ruleset", $("ruleset").value);
  query.set("form", $("form-kind").value);
  for (const input of form().querySelectorAll("input[name], select[name]")) {
    if (input.name === "ruleset" || input.name === "form" || input.type === "file") continue;
    if (input.closest("[hidden]")) continue;
    if (input.type === "checkbox") { if (input.checked) query.append(input.name, input.value); continue; }
    const value = input.value.trim();
    if (value) query.set(input.name, value);
  }
  return query;
}

/* The JSON body of POST /api/odds for a query. */
function bodyOf(query) {
  const body = {};
  for (const [key, value] of query) {
    if (key === "form") continue;
    if (key === "situation") (body.situation = body.situation || []).push(value);
    else if (LISTS.includes(key)) body[key] = value.split(",").map(s => s.trim()).filter(Boolean);
    else body[key] = value;
  }
  return body;
}

let weaponsAsked = 0;  // the latest list asked for: an earlier answer arriving late is dropped
async function loadWeapons(wanted) {
  const select = $("weapon");
  const unit = $("attacker").value.trim();
  const asked = ++weaponsAsked;
  select.innerHTML = "";
  if (!unit) return;
  const params = new URLSearchParams({ ruleset: $("ruleset").value, unit });
  if ($("form-kind").value === "upload" && $("upload").value) params.set("upload", $("upload").value);
  try {
    const data = await api(`/api/weapons?${params}`);
    if (asked !== weaponsAsked) return;
    for (const weapon of data.weapons) {
      const option = document.createElement("option");
      option.value = weapon.name;
      option.dataset.odds = weapon.odds;
      option.disabled = weapon.odds === "melee";  // the odds always refuse it
      option.textContent = `${weapon.name} (${Object.entries(weapon.characteristics).map(([k, v]) => `${k} ${v}`).join(", ")})` +
        (FIT_NOTES[weapon.odds] || "");
      select.appendChild(option);
    }
    // The weapon asked for (a share link), else the first the odds answer as it is, else
    // the first that needs a field more (a Blast's hits); none: nothing to ask with.
    const options = [...select.options];
    const first = options.find(o => o.dataset.odds === "ok") || options.find(o => !o.disabled);
    select.value = wanted || (first ? first.value : "");
  } catch (error) { /* an unknown unit: asking names the problem */ }
}

let unitTimer = null;
function suggestUnits(text) {
  clearTimeout(unitTimer);
  unitTimer = setTimeout(async () => {
    const params = new URLSearchParams({ ruleset: $("ruleset").value, query: text });
    if ($("form-kind").value === "upload" && $("upload").value) params.set("upload", $("upload").value);
    const list = $("unit-names");
    list.innerHTML = "";
    let data;
    try { data = await api(`/api/units?${params}`); } catch (error) { return; }  // asking names it
    for (const name of data.units) {
      const option = document.createElement("option"); option.value = name; list.appendChild(option);
    }
  }, 150);
}

function percentile(values, q) {
  let total = 0;
  for (let i = 0; i < values.length; i++) { total += values[i]; if (total >= q - 1e-12) return i; }
  return values.length - 1;
}

/* Each compared set-up's label: its question, and those of its situations and flags
   that not every set-up shares and that the question does not already say (half-range,
   cover, a --rule), so that set-ups differing only there are told apart. */
function labels(setups) {
  const said = setups.map(s => [...s.query].filter(([key]) => key !== "form")
    .map(([key, value]) => ({ text: key === "situation" ? value : `${key} ${value}`, value })));
  return setups.map((s, k) => {
    const own = said[k].filter(({ text, value }) =>
      !said.every(other => other.some(o => o.text === text)) && !s.result.question.includes(value));
    return own.length ? `${s.result.question} · ${own.map(o => o.text).join(", ")}` : s.result.question;
  });
}

function show() {
  const result = current.result;
  const values = result.models_killed;
  $("result").hidden = false;
  $("question").textContent = `${result.question} (${result.edition})`;
  $("mean").textContent = result.mean_models_killed.toFixed(3);
  $("p-destroyed").textContent = `${(result.p_unit_destroyed * 100).toFixed(2)}%`;
  $("percentiles").textContent =
    `${percentile(values, 0.5)} (${percentile(values, 0.1)} – ${percentile(values, 0.9)})`;
  // The CLI's "mean attacks …, hits …" line: where the dice go, step by step.
  $("means").textContent = "mean " + Object.entries(result.means)
    .map(([step, value]) => `${step.replace("_", " ")} ${value.toFixed(3)}`).join(", ");
  $("notes").textContent = result.notes.join(" · ");
  const body = $("dist").querySelector("tbody");
  body.innerHTML = "";
  let atLeast = 1;
  values.forEach((p, i) => {
    const row = document.createElement("tr");
    for (const text of [i, `${(p * 100).toFixed(2)}%`, `${(Math.max(0, atLeast) * 100).toFixed(2)}%`]) {
      const cell = document.createElement("td"); cell.textContent = text; row.appendChild(cell);
    }
    body.appendChild(row);
    atLeast -= p;
  });
  // The set-up just added to the comparison is the one shown: drawn (and linked) once.
  const kept = isKept(current);
  const setups = kept ? compared : [...compared, current];
  const names = labels(setups);
  const series = setups.map((s, k) => ({ label: names[k], values: s.result.models_killed }));
  barChart($("chart"), series, "models destroyed");
  $("badge").hidden = true;
  $("compare-add").disabled = kept;
  $("compare-clear").hidden = compared.length === 0;
  const share = new URLSearchParams(current.query);
  for (const other of compared) if (!same(other, current)) share.append("also", other.query.toString());
  const link = `${location.pathname}?${share}`;
  $("share").href = link; $("share").hidden = false;
  history.replaceState(null, "", link);
}

/* Whether two set-ups ask the same question (the same query, whatever its order). */
function same(a, b) {
  const text = setup => [...setup.query].map(pair => pair.map(encodeURIComponent).join("=")).sort().join("&");
  return text(a) === text(b);
}

function isKept(setup) { return compared.some(other => same(other, setup)); }

async function ask(query) {
  return { query, result: await api("/api/odds", bodyOf(query)) };
}

async function submit(event) {
  if (event) event.preventDefault();
  showError("");
  try {
    current = await ask(formQuery());
    show();
  } catch (error) { showError(error.message); }
}

async function check() {
  const badge = $("badge");
  badge.hidden = false; badge.className = "badge wait"; badge.textContent = "simulating…";
  try {
    const body = { ...bodyOf(current.query), trials: Number($("trials").value) };
    const data = await api("/api/odds/check", body);
    badge.className = `badge ${data.matches ? "ok" : "bad"}`;
    badge.textContent = `${data.matches ? "exact ✓ matches" : "✗ differs from"} a simulation of the real engine ` +
      `(${data.trials} volleys, χ² ${data.chi2.toFixed(1)}, ${data.dof} df, p = ${data.p_value.toFixed(3)})`;
  } catch (error) {
    badge.className = "badge wait"; badge.textContent = `no engine check: ${error.message}`;
  }
}

async function swap() {
  const attacker = $("attacker").value, target = $("target").value;
  $("attacker").value = target; $("target").value = attacker;
  $("models").value = ""; $("target-models").value = "";
  await loadWeapons();
  if ($("weapon").value) await submit();
  else if ($("weapon").options.length) showError(`${target}: no weapon the odds can answer (melee only)`);
}

async function upload() {
  const file = $("upload-file").files[0];
  if (!file) return;
  const data = new FormData(); data.append("file", file);
  showError("");
  $("upload").value = ""; $("upload-info").textContent = ""; $("upload-notes").textContent = "";
  uploaded = null;
  try {
    const answer = await api("/api/upload", data);
    if (answer.kind === "scenario") {  // taken for the lab; it holds no units to pick
      $("upload-file").value = "";
      showError(`${answer.name} is a scenario, not a BattleScribe file (.cat .gst .ros .rosz)`);
      return;
    }
    $("upload").value = answer.id;
    uploaded = { name: answer.name, edition: answer.edition };
    $("upload-info").textContent = `${answer.name}: ${answer.units.length} units` + (answer.edition ? ` (${answer.edition})` : "");
    $("upload-notes").textContent = answer.notes.join(" · ");  // what the import could not read
    const known = [...$("ruleset").options].some(o => o.value === answer.edition);
    if (answer.edition && known && answer.edition !== $("ruleset").value) await setRuleset(answer.edition);
    else await unitsChanged();
  } catch (error) { showError(error.message); }
}

/* Fill the form from a query (a share link) and ask. */
async function fromQuery(query) {
  $("form-kind").value = query.get("form") || "library";
  setRuleset(query.get("ruleset") || "core11", query.getAll("situation"));
  for (const input of form().querySelectorAll("input[name]")) {
    if (["ruleset", "form", "situation"].includes(input.name) || input.type === "file") continue;
    if (input.closest("[hidden]")) continue;
    input.value = query.get(input.name) || "";
  }
  if (query.get("weapon")) await loadWeapons(query.get("weapon"));
  compared = [];
  const own = new URLSearchParams(query); own.delete("also");
  for (const other of query.getAll("also")) {
    const setup = { query: new URLSearchParams(other) };
    if (same(setup, { query: own }) || isKept(setup)) continue;  // asked once
    try { compared.push(await ask(setup.query)); } catch (error) { showError(error.message); }
  }
  try { current = await ask(own); show(); } catch (error) { showError(error.message); }
}

document.addEventListener("DOMContentLoaded", async () => {
  situations = await api("/api/situations");
  $("ruleset").addEventListener("change", () => setRuleset($("ruleset").value));
  $("form-kind").addEventListener("change", formChanged);
  $("attacker").addEventListener("input", e => suggestUnits(e.target.value));
  $("target").addEventListener("input", e => suggestUnits(e.target.value));
  $("attacker").addEventListener("change", () => loadWeapons());
  $("upload-file").addEventListener("change", upload);
  $("swap").addEventListener("click", swap);
  $("check").addEventListener("click", check);
  $("compare-add").addEventListener("click", () => {
    if (current && !isKept(current)) { compared.push(current); show(); }
  });
  $("compare-clear").addEventListener("click", () => { compared = []; if (current) show(); });
  form().addEventListener("submit", submit);
  const query = new URLSearchParams(location.search);
  if (query.has("ruleset")) await fromQuery(query);
  else setRuleset($("ruleset").value);
  document.body.dataset.ready = "1";
});
