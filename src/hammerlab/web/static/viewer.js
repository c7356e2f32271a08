"use strict";
/* The battle viewer: the table at the start plus the events, stepped forward and back.
   A step is one event that is not a dice roll; the rolls show in the log under it. */
let battle = null, nodes = {}, steps = [], position = 0, timer = null;

function stateAt(step) {
  const state = startState(battle.start);
  const last = step === 0 ? -1 : steps[step - 1];
  for (let i = 0; i <= last; i++) applyEvent(state, battle.events[i]);
  return state;
}

function go(step) {
  position = Math.max(0, Math.min(steps.length, step));
  placeModels(nodes, stateAt(position));
  const last = position === 0 ? -1 : steps[position - 1];
  const items = $("log").children;
  for (let i = 0; i < items.length; i++) {
    items[i].classList.toggle("future", i > last);
    items[i].classList.toggle("current", i === last);
  }
  if (last >= 0) items[last].scrollIntoView({ block: "nearest" });
  const dead = Object.values(stateAt(position)).filter(m => m.wounds <= 0).length;
  $("step-info").textContent = `step ${position} / ${steps.length} · casualties ${dead}`;
  $("step-info").dataset.casualties = dead;
  let turn = "";
  for (let i = last; i >= 0; i--) if (battle.events[i].kind === "phase") { turn = String(battle.events[i].turn); break; }
  const turns = $("turn");  // before the first turn begins: the first turn
  turns.value = turn || (turns.options.length ? turns.options[0].value : "");
}

function load(data) {
  battle = data;
  steps = [];
  const log = $("log");
  log.innerHTML = "";
  data.events.forEach((event, i) => {
    const item = document.createElement("li");
    item.textContent = event.text;
    item.className = event.kind === "dice" ? "dice" : "";
    // A line jumps to its event by mouse, or by keyboard (Tab to it, Enter or Space).
    const jump = () => go(steps.indexOf(i) + 1 || stepOf(i));
    item.tabIndex = 0;
    item.addEventListener("click", jump);
    item.addEventListener("keydown", e => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); jump(); }
    });
    log.appendChild(item);
    if (event.kind !== "dice") steps.push(i);
  });
  const turns = $("turn");
  turns.innerHTML = "";
  data.events.forEach((event, i) => {
    if (event.kind === "phase" && event.begins && ![...turns.options].some(o => o.value === String(event.turn))) {
      const option = document.createElement("option");
      option.value = event.turn; option.textContent = event.turn; option.dataset.step = stepOf(i);
      turns.appendChild(option);
    }
  });
  $("battle").hidden = false;
  showSource(data);
  $("battle-title").textContent = data.title + (data.note ? ` — ${data.note}` : "");
  // A game stopped before its end (battle --stop-after) reads as the CLI prints it.
  const stopped = data.stopped_before_turn ? [`Stopped before turn ${data.stopped_before_turn}`] : [];
  $("summary").textContent = [...stopped, ...data.summary].join("\n");
  nodes = drawBoard($("field"), data.start);
  go(0);
}

/* The form names the battle on view (a log opened, a game of the Play page): its scenario,
   where this server offers the same, its seed, the --rule flags and the --stop-after turn
   it was played with; "Run battle" plays it again, to the same stop. A log of another scenario is named as such, not as
   whichever scenario the list showed. */
function showSource(data) {
  const select = $("scenario");
  const own = `${data.scenario_name} (the log's own, not on this server)`;
  showForeignScenario(select, "logged", data.scenario ? null : own);
  if (data.scenario) select.value = data.scenario;
  $("seed").value = data.seed;
  $("rule").value = data.rule.join("\n");
  $("stop-after").value = data.stop_after === null ? "" : data.stop_after;
}

function stepOf(index) { return steps.filter(i => i <= index).length; }

function play() {
  pause();
  timer = setInterval(() => { if (position >= steps.length) pause(); else go(position + 1); }, 250);
}
function pause() { if (timer) clearInterval(timer); timer = null; }

async function run(event) {
  event.preventDefault();
  showError(""); pause();
  if (!$("scenario").value) { showError("the log's scenario is not on this server: pick one from the list"); return; }
  const rule = lines($("rule").value);
  const stop = $("stop-after").value;  // empty: to the last turn
  const body = { scenario: $("scenario").value, seed: Number($("seed").value), rule,
                 "stop-after": stop === "" ? null : Number(stop) };
  try { load(await api("/api/battle", body)); }
  catch (error) { showError(error.message); }
}

async function openLog(file) {
  if (!file) return;
  showError(""); pause();
  const form = new FormData(); form.append("file", file);
  try { load(await api("/api/battle/log", form)); } catch (error) { showError(error.message); }
}

/* A game played on the Play page (?game=ID), once over: its log, opened as a file is. */
async function openGame(id) {
  const response = await fetch(`/api/play/${encodeURIComponent(id)}/log.jsonl`);
  if (!response.ok) {
    let message = `request failed (${response.status})`;
    try { message = (await response.json()).error || message; } catch (e) { /* not JSON */ }
    showError(`game ${id}: ${message}`);
    return;
  }
  await openLog(new File([await response.blob()], `game-${id}.jsonl`));
}

document.addEventListener("DOMContentLoaded", async () => {
  await fillScenarios($("scenario"));
  const query = new URLSearchParams(location.search);
  const missing = chooseScenario($("scenario"), query.get("scenario"));
  if (missing) showError(missing);
  if (query.get("seed")) $("seed").value = query.get("seed");
  $("rule").value = query.getAll("rule").join("\n");
  $("viewer-form").addEventListener("submit", run);
  $("log-file").addEventListener("change", () => openLog($("log-file").files[0]));
  $("start").addEventListener("click", () => { pause(); go(0); });
  $("back").addEventListener("click", () => { pause(); go(position - 1); });
  $("fwd").addEventListener("click", () => { pause(); go(position + 1); });
  $("end").addEventListener("click", () => { pause(); go(steps.length); });
  $("play").addEventListener("click", play);
  $("pause").addEventListener("click", pause);
  $("turn").addEventListener("change", () => { pause(); go(Number($("turn").selectedOptions[0].dataset.step)); });
  if (query.get("game")) await openGame(query.get("game"));
  document.body.dataset.ready = "1";
});
