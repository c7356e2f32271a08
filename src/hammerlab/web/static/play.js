"use strict";
/* The play page: the game lives on the server (POST /api/play); each click applies one
   legal top-level action and the AI answers until it is your turn again. */
let game = null;

async function describe() {
  const info = await api(`/api/scenario?${new URLSearchParams({ scenario: $("scenario").value })}`);
  $("side").innerHTML = "";
  for (const name of info.players) {
    const option = document.createElement("option"); option.value = name; option.textContent = name;
    $("side").appendChild(option);
  }
}

function show(state) {
  game = state;
  $("game").hidden = false;
  const phase = state.phase ? `, ${state.phase} phase` : "";
  $("status").textContent = state.over
    ? `Game over after turn ${state.turn}`
    : `Turn ${state.turn}${phase}: ${state.player === state.you ? "your move" : state.player + " to act"} (you play ${state.you})`;
  $("prompt").textContent = state.decision ? `${state.decision.prompt} (${state.decision.kind})` : "";
  const actions = $("actions");
  actions.innerHTML = "";
  for (const action of state.actions) {
    const button = document.createElement("button");
    button.type = "button"; button.className = "action"; button.textContent = action.text;
    button.setAttribute("aria-describedby", "prompt");
    button.addEventListener("click", () => act(action.index));
    actions.appendChild(button);
  }
  const here = new URLSearchParams(location.search);
  if (state.scenario) here.set("scenario", state.scenario); else here.delete("scenario");
  here.set("game", state.id);
  history.replaceState(null, "", `${location.pathname}?${here}`);
  $("save-game").href = `/api/play/${state.id}/game.json`;
  $("game-log").href = `/api/play/${state.id}/log.jsonl`;
  $("open-viewer").href = `/viewer?game=${encodeURIComponent(state.id)}`;
  $("finished").hidden = !state.over;
  const log = $("log");
  for (const old of log.querySelectorAll("li.new")) old.classList.remove("new", "current");
  for (const event of state.log) {
    const item = document.createElement("li");
    item.textContent = event.text;
    item.className = `new ${event.kind === "dice" ? "dice" : ""}`;
    log.appendChild(item);
  }
  if (log.lastElementChild) log.lastElementChild.scrollIntoView({ block: "nearest" });
  const nodes = drawBoard($("field"), state.table);
  placeModels(nodes, startState(state.table));
  $("summary").textContent = state.summary.join("\n");
}

/* Keyboard focus on the decision now open (its first action), or on the status line. */
function focusDecision() {
  const first = $("actions").querySelector("button");
  (first || $("status")).focus();
}

async function act(index) {
  showError("");
  for (const button of $("actions").querySelectorAll("button")) button.disabled = true;
  try { show(await api(`/api/play/${game.id}`, { action: index, step: game.step })); }
  catch (error) { showError(error.message); show(await api(`/api/play/${game.id}`)); }
  focusDecision();
}

/* Reopen the game the URL names (a reload): its whole log, the actions open now. */
async function resume(id) {
  $("log").innerHTML = "";
  try {
    const state = await api(`/api/play/${encodeURIComponent(id)}?whole_log=true`);
    // The form says what the reopened game is: its scenario, your side and its seed.
    if ([...$("scenario").options].some(o => o.value === state.scenario)) {
      $("scenario").value = state.scenario;
      await describe();
    }
    $("side").value = state.you;
    $("seed").value = state.seed;
    show(state);
    focusDecision();
  } catch (error) { showError(`game ${id}: ${error.message}`); }
}

async function start(event) {
  event.preventDefault();
  showError("");
  $("log").innerHTML = "";
  try {
    show(await api("/api/play", { scenario: $("scenario").value, side: $("side").value, seed: Number($("seed").value) }));
    focusDecision();
  } catch (error) { showError(error.message); }
}

document.addEventListener("DOMContentLoaded", async () => {
  await fillScenarios($("scenario"));
  const missing = chooseScenario($("scenario"), new URLSearchParams(location.search).get("scenario"));
  $("scenario").addEventListener("change", () => describe().catch(e => showError(e.message)));
  $("play-form").addEventListener("submit", start);
  await describe().catch(e => showError(e.message));
  if (missing) showError(missing);
  const id = new URLSearchParams(location.search).get("game");
  if (id) await resume(id);
  document.body.dataset.ready = "1";
});
