"use strict";
/* The lab page: POST /api/lab starts a job; GET /api/lab/{id} is polled for the bar and the report.
   The page's address holds the lab's settings, named as the request's fields (scenario or
   upload, rule, set, runs, seed), and the job (job=ID): opening it fills the form and shows
   the job while the server keeps it. */
let rulesets = {};
let uploadId = null;

async function describeScenario() {
  const params = uploadId ? new URLSearchParams({ upload: uploadId }) : new URLSearchParams({ scenario: $("scenario").value });
  const info = await api(`/api/scenario?${params}`);
  showUpload(uploadId ? info.name : null);
  $("scenario-about").textContent = `${info.name} (${info.ruleset}): ${info.description}`;
  const box = $("rule-options");
  box.innerHTML = "";
  for (const option of rulesets[info.ruleset].options) {
    const label = document.createElement("label");
    label.className = "check"; label.title = option.summary || "";
    const input = document.createElement("input");
    input.type = "checkbox"; input.name = "rule"; input.value = option.name;
    label.append(input, option.name);
    box.appendChild(label);
  }
}

/* The Scenario list names the scenario in use: an uploaded one (``name``) as its own entry,
   chosen, so that the list does not show a server file the lab will not play, and picking
   any file from the list (the one shown before included) changes to it. */
function showUpload(name) {
  showForeignScenario($("scenario"), "uploaded",
                      name === null ? null : `${name} (uploaded, not on this server)`);
}

function showReport(job) {
  const report = job.report;
  $("report").hidden = false;
  $("report-title").textContent =
    `${report.scenario}: baseline vs variant (${report.rule}), ${report.runs} paired battles from seed ${report.first_seed}, played by the ${report.ai} AI`;
  const body = $("units").querySelector("tbody");
  body.innerHTML = "";
  // Every figure as `hammerlab lab` prints it (job.unit_cells, job.win_cells: stats.interval),
  // written exactly where the runs allow, so a difference is the variant less the baseline shown.
  report.units.forEach((u, i) => {
    const row = document.createElement("tr");
    for (const text of [u.label, u.models_fielded, ...job.unit_cells[i]]) {
      const cell = document.createElement("td"); cell.textContent = text; row.appendChild(cell);
    }
    body.appendChild(row);
  });
  // Each outcome's rate in both arms and their paired difference, with 95% intervals.
  const wins = $("wins").querySelector("tbody");
  wins.innerHTML = "";
  report.win_rates.forEach((w, i) => {
    const row = document.createElement("tr");
    for (const text of [w.outcome, ...job.win_cells[i]]) {
      const cell = document.createElement("td"); cell.textContent = text; row.appendChild(cell);
    }
    wins.appendChild(row);
  });
  const alike = report.paired_battles_ended_alike;
  $("alike").textContent =
    `Paired battles that ended alike (every unit's models left, and the winner): ${alike} of ${report.runs}.` +
    (alike === report.runs ? " The change made no difference to any of them: it may never come into play here." : "") +
    (job.alike_note ? ` ${job.alike_note}` : "") + (job.rounding_note ? ` ${job.rounding_note}` : "");
  $("arms").textContent = job.arms_text || "";
  $("plugins").textContent = job.plugins_line || "";
  $("plugins").hidden = !job.plugins_line;
  const notes = $("warnings");
  notes.innerHTML = "";
  for (const warning of report.warnings) {
    const item = document.createElement("li"); item.textContent = warning; notes.appendChild(item);
  }
  $("warnings-box").hidden = report.warnings.length === 0;
  const choices = $("choices").querySelector("tbody");
  choices.innerHTML = "";
  for (const c of report.rule_choices) {
    const row = document.createElement("tr");
    for (const text of [c.choice, `chosen ${c.baseline_chosen} of ${c.baseline_offered}`,
                        `chosen ${c.variant_chosen} of ${c.variant_offered}`]) {
      const cell = document.createElement("td"); cell.textContent = text; row.appendChild(cell);
    }
    choices.appendChild(row);
  }
  $("choices-box").hidden = report.rule_choices.length === 0;
  drawLab(report);
  $("dl-json").href = `/api/lab/${job.id}/report.json`;
  $("dl-csv").href = `/api/lab/${job.id}/report.csv`;
  $("dl-html").href = `/api/lab/${job.id}/report.html`;
}

/* Models left per unit, baseline and variant, with the variant's 95% interval. */
function drawLab(report) {
  const box = $("lab-chart");
  box.innerHTML = "";
  const width = chartWidth(box), left = Math.min(200, Math.round(width * 0.4));
  const rowH = 34, height = 24 + rowH * report.units.length;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img" }, box);
  const most = Math.max(1, ...report.units.map(u => u.models_fielded));
  const x = v => left + (width - left - 20) * v / most;
  report.units.forEach((u, i) => {
    const y = 10 + i * rowH;
    svg("text", { x: left - 6, y: y + 16, "text-anchor": "end", "font-size": 11 }, root).textContent = u.label.slice(0, Math.floor(left / 7));
    svg("rect", { x: left, y, width: x(u.baseline_mean_models_left) - left, height: 12, fill: "#2c5aa0" }, root);
    svg("rect", { x: left, y: y + 13, width: x(u.variant_mean_models_left) - left, height: 12, fill: "#b8432f" }, root);
    const low = u.baseline_mean_models_left + u.ci95[0], high = u.baseline_mean_models_left + u.ci95[1];
    svg("line", { x1: x(Math.max(0, low)), x2: x(Math.min(most, high)), y1: y + 19, y2: y + 19, stroke: "#1d232a", "stroke-width": 2 }, root);
  });
  svg("text", { x: left, y: height - 2, "font-size": 11, fill: "#5c6670" }, root).textContent =
    "models left: baseline (blue), variant (red), 95% interval";
}

/* The job's progress, then its report (or why it failed); polled while it runs. */
function follow(job) {
  $("progress-box").hidden = false;
  $("progress").max = job.total; $("progress").value = job.done;
  $("progress-text").textContent = `${job.done} / ${job.total} battles` + (job.state === "done" ? " — done" : "");
  $("run").disabled = job.state === "running";
  if (job.state === "running") { setTimeout(() => poll(job.id).catch(e => showError(e.message)), 300); return; }
  if (job.state === "failed") { showError(job.error); return; }
  showReport(job);
}

async function poll(id) { follow(await api(`/api/lab/${id}`)); }

/* What the form asks: POST /api/lab's body. */
function settings() {
  const rules = [...document.querySelectorAll("input[name=rule]:checked")].map(i => i.value);
  const body = {
    rule: [...rules, ...lines($("rule-extra").value)], set: lines($("set").value),
    runs: Number($("runs").value), seed: Number($("seed").value),
  };
  if (uploadId) body.upload = uploadId; else body.scenario = $("scenario").value;
  return body;
}

/* The settings (and the job, if any) as the page's address: reloaded or shared, it
   fills the form again and shows the job's report while the server keeps it. */
function remember(body, jobId) {
  const here = new URLSearchParams();
  if (body.upload) here.set("upload", body.upload); else here.set("scenario", body.scenario);
  for (const rule of body.rule) here.append("rule", rule);
  for (const flag of body.set) here.append("set", flag);
  here.set("runs", body.runs); here.set("seed", body.seed);
  if (jobId) here.set("job", jobId);
  history.replaceState(null, "", `${location.pathname}?${here}`);
}

/* Fill the form from settings (an address's, or a kept job's): the scenario, its rules
   ticked (the other flags in the box below them), the --set flags, runs and seed. What
   to say if the scenario named is not there. */
async function fillForm(asked) {
  uploadId = asked.upload || null;
  let problem = uploadId ? null : chooseScenario($("scenario"), asked.scenario);
  try { await describeScenario(); }
  catch (error) {
    problem = error.message;
    if (uploadId) { uploadId = null; await describeScenario().catch(() => {}); }
  }
  const extra = [];
  for (const rule of asked.rule || []) {
    const box = [...document.querySelectorAll("input[name=rule]")].find(i => i.value === rule);
    if (box) box.checked = true; else extra.push(rule);
  }
  $("rule-extra").value = extra.join("\n");
  $("set").value = (asked.set || []).join("\n");
  if (asked.runs) $("runs").value = asked.runs;
  if (asked.seed !== undefined && asked.seed !== null && asked.seed !== "") $("seed").value = asked.seed;
  return problem;
}

async function run(event) {
  event.preventDefault();
  showError("");
  const body = settings();
  try {
    $("run").disabled = true;
    $("report").hidden = true;
    const job = await api("/api/lab", body);
    remember(body, job.id);
    follow(job);
  } catch (error) { $("run").disabled = false; showError(error.message); }
}

/* The page opened on an address: the job it names, while the server keeps it (its own
   settings fill the form); else the address's settings, ready to run. */
async function reopen(query) {
  const id = query.get("job");
  let job = null, gone = null;
  if (id) {
    try { job = await api(`/api/lab/${encodeURIComponent(id)}`); }
    catch (error) { gone = `lab run ${id}: ${error.message}; the form holds its settings: Run plays it again`; }
  }
  const asked = job ? job.asked : {
    scenario: query.get("scenario"), upload: query.get("upload"), rule: query.getAll("rule"),
    set: query.getAll("set"), runs: query.get("runs"), seed: query.get("seed"),
  };
  const problem = await fillForm(asked);
  if (job) follow(job);
  if (problem || gone) showError(problem || gone);
}

document.addEventListener("DOMContentLoaded", async () => {
  const data = await fillScenarios($("scenario"));
  rulesets = data.rulesets;
  $("scenario").addEventListener("change", () => {
    showError(""); uploadId = null;
    describeScenario().catch(e => showError(e.message));
  });
  $("scenario-file").addEventListener("change", async () => {
    const file = $("scenario-file").files[0];
    if (!file) return;
    const form = new FormData(); form.append("file", file);
    showError("");
    try { uploadId = (await api("/api/upload", form)).id; await describeScenario(); }
    catch (error) {
      $("scenario-file").value = "";  // refused: the form shows no file it does not use
      showError(error.message);
    }
  });
  $("lab-form").addEventListener("submit", run);
  await reopen(new URLSearchParams(location.search));
  document.body.dataset.ready = "1";
});
