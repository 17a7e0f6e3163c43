// The page of `scaleopt serve` (docs/serve.md): a scenario's inputs as controls, its answer as
// `scaleopt solve` gives it, and a chart of the optimum against one input, all re-solved by the
// server's API on every move. No library but Chart.js (served by the same server); nothing is
// fetched from elsewhere (the Content-Security-Policy forbids it).
"use strict";

const SLIDER_STEPS = 1000;
const SWEEP_POINTS = 200;
// The inputs a chart is drawn against first: the demand, in the first form the scenario has.
const DEMAND_KEYS = ["inference.rate", "inference.tokens", "inference.requests"];

const state = {
  source: null,        // {example: NAME} or {served: PATH}
  file: "",            // what the command line names: examples/NAME.toml or the served path
  text: "",            // the scenario's TOML as shipped
  set: new Map(),      // path -> number or string: the --set overrides, in the order given
  inputs: [],          // /api/inputs: numeric inputs with their ranges
  menus: [],
  assumptions: [],
  sliders: new Map(),  // path -> {lo, hi, log, whole}
  lastChanged: null,   // the control whose value the last request carried
  inFlight: false,
  pending: false,
  changedAt: null,     // performance.now() of the first move not yet drawn
  redraws: [],         // ms from a move to the frame showing its chart (the browser test reads)
  chart: null,
  sweepColumns: null,  // the columns the scenario's sweeps have (from its first, full one)
  chartKey: null,      // what the chart's datasets were made for: axis, interval, series
  chartColumns: [],
  chartAxis: {unit: "number", log: true},
};

// ---- numbers as text ---------------------------------------------------------------------

// The shortest text that reads back as the same double: JavaScript's Number.toString is that
// (ECMAScript's Number::toString), and `--set` and TOML read "1e+21" and "5e-7" as written.
function exact(value) {
  return String(value);
}

function significant(value, digits) {
  return String(Number(value.toPrecision(digits)));
}

// 263T, 1.7KB, $2/h, 50M/s: values as parse_quantity reads them, to 4 significant digits.
function withSuffix(value, steps, suffix) {
  const magnitude = Math.abs(value);
  for (const [size, name] of steps) {
    if (magnitude >= size) return significant(value / size, 4) + name + suffix;
  }
  return significant(value, 4) + suffix;
}

const SI = [[1e15, "P"], [1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "K"]];
const COUNT = [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]];
const SECONDS = [[365.25 * 86400, "y"], [86400, "d"], [3600, "h"], [60, "min"], [1, "s"]];

function formatValue(value, unit) {
  if (value === null || value === undefined) return "-";
  if (!Number.isFinite(value)) return String(value);
  switch (unit) {
    case "count":
      return Math.abs(value) >= 1e15 ? Number(value.toPrecision(4)).toExponential() : withSuffix(value, COUNT, "");
    case "bytes":
      return withSuffix(value, SI, "B");
    case "bytes/s":
      return withSuffix(value, SI, "B/s");
    case "FLOP/s":
      return withSuffix(value, SI, "FLOP/s");
    case "USD":
      return "$" + withSuffix(value, [[1e12, "T"], [1e9, "B"], [1e6, "M"], [1e3, "K"]], "");
    case "USD/hour":
      return "$" + significant(value, 4) + "/h";
    case "1/s":
      return withSuffix(value, SI, "/s");
    case "s":
      if (value !== 0 && Math.abs(value) < 1) return significant(value * 1000, 4) + "ms";
      for (const [size, name] of SECONDS) {
        if (Math.abs(value) >= size) return significant(value / size, 4) + name;
      }
      return significant(value, 4) + "s";
    case "W":
      return withSuffix(value, [[1e9, "G"], [1e6, "M"], [1e3, "k"]], "W");
    default:
      return significant(value, 6);
  }
}

function percent(fraction) {
  return fraction === null || fraction === undefined ? "-" : significant(fraction * 100, 4) + "%";
}

function plain(value, digits = 4) {
  if (value === null || value === undefined) return "-";
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e6 || magnitude < 1e-3)) return value.toExponential(digits - 1);
  return significant(value, digits);
}

// ---- the API -----------------------------------------------------------------------------

async function api(method, path, body) {
  const init = {method, headers: {}};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw {status: response.status, message: "HTTP " + response.status + ": " + text.slice(0, 200)};
  }
  if (!response.ok) throw {status: response.status, message: json.error || text};
  return {json, text};
}

function requestBody(extra) {
  const body = state.source.example !== undefined ? {example: state.source.example} : {};
  body.set = Object.fromEntries(state.set);
  return Object.assign(body, extra || {});
}

// ---- the command line and the TOML -------------------------------------------------------

function shellWord(text) {
  return /^[A-Za-z0-9_.,:+=\/@%-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\\''") + "'";
}

function valueText(value) {
  return typeof value === "number" ? exact(value) : String(value);
}

function commandLine() {
  const words = ["scaleopt", "solve", shellWord(state.file)];
  for (const [path, value] of state.set) words.push("--set", shellWord(path + "=" + valueText(value)));
  return words.join(" ");
}

function tomlValue(value) {
  if (typeof value === "number") return exact(value);
  if (typeof value === "boolean") return String(value);
  return JSON.stringify(String(value));  // a TOML basic string: JSON's escapes are TOML's
}

// The scenario's text with each override written in: the key's line replaced where its table
// has it, added under the table's header otherwise, or a new table at the end. Comments and
// every other line stay as shipped, so the file reads as the original with the page's changes.
function scenarioToml() {
  const lines = state.text.split("\n");
  for (const [path, value] of state.set) {
    const dot = path.lastIndexOf(".");
    const table = path.slice(0, dot);
    const key = path.slice(dot + 1);
    const line = key + " = " + tomlValue(value) + "  # set on the page";
    let current = "";
    let header = -1;
    let end = lines.length;
    let found = -1;
    for (let i = 0; i < lines.length; ++i) {
      const heading = /^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$/.exec(lines[i]);
      const arrayHeading = /^\s*\[\[/.test(lines[i]);
      if (heading || arrayHeading) {
        if (current === table && header >= 0) {
          end = i;
          break;
        }
        current = heading ? heading[1].replace(/\s+/g, "") : "";
        if (current === table) header = i;
        continue;
      }
      if (current === table && header >= 0 && new RegExp("^\\s*" + key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "\\s*=").test(lines[i])) {
        found = i;
      }
    }
    if (found >= 0) {
      lines[found] = line;
    } else if (header >= 0) {
      let at = end;
      while (at > header + 1 && lines[at - 1].trim() === "") --at;
      lines.splice(at, 0, line);
    } else {
      if (lines.length && lines[lines.length - 1].trim() !== "") lines.push("");
      lines.push("[" + table + "]", line);
    }
  }
  return lines.join("\n");
}

function downloadToml() {
  const blob = new Blob([scenarioToml()], {type: "application/toml"});
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = state.file.split("/").pop().replace(/\.toml$/, "") + "-page.toml";
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function copyCommand() {
  const text = commandLine();
  const status = document.getElementById("page-status");
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = "command line copied";
  } catch (e) {
    // No clipboard (a page not in a secure context, a denied permission): select it instead.
    const range = document.createRange();
    range.selectNodeContents(document.getElementById("command-line"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    status.textContent = "command line selected: copy it with Ctrl+C";
  }
}

// ---- controls ----------------------------------------------------------------------------

// The slider's interval, fixed when the scenario is loaded so that it does not drift as the
// value moves: a hundredth to a hundredfold on a log scale, within the key's allowed range.
function sliderRange(input) {
  const range = input.range;
  const lower = range.lower === null ? -Infinity : range.lower;
  const upper = range.upper === null ? Infinity : range.upper;
  const value = input.value;
  let lo, hi, log = input.log_scale && value > 0;
  if (log) {
    lo = value / 100;
    hi = value * 100;
  } else if (Number.isFinite(lower) && Number.isFinite(upper)) {
    lo = lower;
    hi = upper;
  } else if (value > 0) {
    lo = 0;
    hi = 2 * value;
  } else if (value < 0) {
    lo = 2 * value;
    hi = 0;
  } else {
    lo = 0;
    hi = 1;
  }
  lo = Math.max(lo, lower);
  hi = Math.min(hi, upper);
  // An open bound is not a value: stay a thousandth of the way inside it.
  const inside = log ? Math.pow(hi / lo, 1e-3) : (hi - lo) * 1e-3;
  if (range.lower_open && lo === lower) lo = log ? lo * inside : lo + inside;
  if (range.upper_open && hi === upper) hi = log ? hi / inside : hi - inside;
  if (input.whole_number) {
    lo = Math.ceil(lo);
    hi = Math.max(Math.floor(hi), lo);
  }
  return {lo, hi, log, whole: input.whole_number};
}

function sliderValue(s, position) {
  const t = position / SLIDER_STEPS;
  let value = s.log ? s.lo * Math.pow(s.hi / s.lo, t) : s.lo + (s.hi - s.lo) * t;
  if (t === 0) value = s.lo;
  if (t === 1) value = s.hi;
  return s.whole ? Math.round(value) : value;
}

function sliderPosition(s, value) {
  if (s.hi === s.lo) return 0;
  const t = s.log ? Math.log(value / s.lo) / Math.log(s.hi / s.lo) : (value - s.lo) / (s.hi - s.lo);
  return Math.round(Math.min(1, Math.max(0, t)) * SLIDER_STEPS);
}

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
}

function controlId(path) {
  return "input-" + path.replace(/[^A-Za-z0-9_-]/g, "_");
}

function markAssumed(row, input) {
  row.classList.toggle("assumed", Boolean(input.assumed) && !state.set.has(input.path));
  row.classList.toggle("changed", state.set.has(input.path));
}

function buildMenus() {
  const box = document.getElementById("menus");
  box.replaceChildren();
  for (const menu of state.menus) {
    const select = element("select", {id: controlId(menu.path), "data-path": menu.path});
    if (menu.value !== null && !menu.choices.includes(menu.value)) {
      select.appendChild(element("option", {value: menu.value, text: menu.value + " (the scenario's)"}));
    }
    if (menu.value === null) select.appendChild(element("option", {value: "", text: "none"}));
    for (const choice of menu.choices) select.appendChild(element("option", {value: choice, text: choice}));
    select.value = menu.value === null ? "" : menu.value;
    const row = element("div", {class: "control menu", "data-path": menu.path},
                        element("label", {for: select.id, text: menu.path, title: menu.doc}), select,
                        element("span", {class: "assumed-mark", text: "assumed",
                                         title: "default " + menu.default + ": an assumption"}),
                        element("div", {class: "error", "data-error-for": menu.path}));
    row.classList.toggle("assumed", menu.assumed);
    select.addEventListener("change", () => {
      if (select.value === "") return;
      state.set.set(menu.path, select.value);
      // Another chip has other fields: the old chip's overrides no longer apply.
      if (menu.path.endsWith(".hardware")) {
        for (const path of [...state.set.keys()]) if (path.startsWith("hardware.")) state.set.delete(path);
      }
      state.lastChanged = menu.path;
      reloadInputs(true);
    });
    box.appendChild(row);
  }
}

function buildControls() {
  const box = document.getElementById("controls");
  box.replaceChildren();
  state.sliders.clear();
  let group = null;
  let groupName = "";
  for (const input of state.inputs) {
    const table = input.path.startsWith("hardware.")
        ? input.path.slice(0, input.path.lastIndexOf("."))
        : input.path.slice(0, input.path.indexOf("."));
    if (table !== groupName) {
      groupName = table;
      group = element("details", {class: "group", "data-table": table},
                      element("summary", {text: "[" + table + "]"}));
      if (!table.startsWith("hardware.")) group.open = true;
      box.appendChild(group);
    }
    const s = sliderRange(input);
    state.sliders.set(input.path, s);
    const id = controlId(input.path);
    const slider = element("input", {type: "range", id, min: "0", max: String(SLIDER_STEPS), step: "1",
                                     "data-path": input.path, "aria-label": input.path});
    slider.value = String(sliderPosition(s, input.value));
    const text = element("input", {type: "text", id: id + "-text", "data-path": input.path,
                                   class: "value", spellcheck: "false"});
    text.value = formatValue(input.value, input.unit);
    const unit = input.unit === "number" ? "" : input.unit;
    const row = element("div", {class: "control", "data-path": input.path},
                        element("label", {for: id, text: input.path, title: input.doc + (unit ? " (" + unit + ")" : "")}),
                        slider, text,
                        element("span", {class: "unit", text: unit + (s.log ? ", log" : "")}),
                        element("span", {class: "assumed-mark", text: "assumed",
                                         title: "default " + input.default + ": an assumption"}),
                        element("div", {class: "error", "data-error-for": input.path}));
    markAssumed(row, input);
    slider.addEventListener("input", () => {
      const value = sliderValue(s, Number(slider.value));
      state.set.set(input.path, value);
      text.value = formatValue(value, input.unit);
      input.value = value;
      markAssumed(row, input);
      state.lastChanged = input.path;
      changed();
    });
    text.addEventListener("change", () => {
      const typed = text.value.trim();
      if (typed === "") return;
      // A plain decimal number is sent as a number; anything else ("100M/s", "0x10") as the
      // text typed, which the server reads as --set would.
      const decimal = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(typed);
      state.set.set(input.path, decimal ? Number(typed) : typed);
      state.lastChanged = input.path;
      markAssumed(row, input);
      // A value with a unit ("100M/s") is read by the server: its number comes back with the
      // inputs, and moves the slider there.
      reloadInputs(false);
    });
    group.appendChild(row);
  }
  const chartMenu = document.getElementById("chart-input");
  const chosen = chartMenu.value;
  chartMenu.replaceChildren();
  for (const input of state.inputs) chartMenu.appendChild(element("option", {value: input.path, text: input.path}));
  const paths = state.inputs.map((input) => input.path);
  chartMenu.value = paths.includes(chosen) ? chosen
      : DEMAND_KEYS.find((key) => paths.includes(key)) || paths[0] || "";
}

// The inputs again after a change the page cannot work out itself (a chip or preset chosen, a
// value typed with its unit): `rebuild` redraws every control (another chip has other fields).
async function reloadInputs(rebuild) {
  try {
    const {json} = await api("POST", "/api/inputs", requestBody());
    clearErrors();
    if (rebuild) {
      applyInputs(json);
    } else {
      for (const input of json.inputs) {
        const s = state.sliders.get(input.path);
        const slider = document.getElementById(controlId(input.path));
        if (s && slider) slider.value = String(sliderPosition(s, input.value));
        const known = state.inputs.find((i) => i.path === input.path);
        if (known) known.value = input.value;
      }
      state.assumptions = json.assumptions;
    }
    changed();
  } catch (error) {
    showError(error);
  }
}

function applyInputs(json) {
  state.inputs = json.inputs;
  state.menus = json.menus;
  state.assumptions = json.assumptions;
  buildMenus();
  buildControls();
}

// ---- errors ------------------------------------------------------------------------------

function clearErrors() {
  for (const node of document.querySelectorAll("[data-error-for]")) node.textContent = "";
  for (const node of document.querySelectorAll(".control.invalid")) node.classList.remove("invalid");
  document.getElementById("answer-error").hidden = true;
  document.getElementById("chart-error").hidden = true;
}

// The control a message is about: the override it names ("set: inference.rate: cannot read
// ..."), else the one changed last.
function errorPath(message) {
  for (const path of state.set.keys()) {
    if (message.includes(" " + path + ":") || message.includes(" " + path + " ")) return path;
  }
  return state.lastChanged;
}

// The API's one-line message (the command line's) next to the control it is about, or above
// the answer when it is about none (a scenario that asks solve nothing).
function showError(error) {
  const message = error.message || String(error);
  const path = errorPath(message);
  const target = path && document.querySelector('[data-error-for="' + CSS.escape(path) + '"]');
  if (target) {
    target.textContent = message;
    target.closest(".control").classList.add("invalid");
  } else {
    const box = document.getElementById("answer-error");
    box.textContent = message;
    box.hidden = false;
  }
  document.body.dataset.state = "error";
  document.body.dataset.error = message;
}

// ---- the answer and the chart ------------------------------------------------------------

function answerColumns(answer) {
  return answer.optimum ? [["answer", answer], ["optimum (same loss)", answer.optimum]] : [["answer", answer]];
}

function costCell(answer, phase) {
  const cost = answer.cost && answer.cost[phase];
  if (!cost) return "-";
  const share = phase !== "total" && answer.cost_shares ? " (" + percent(answer.cost_shares[phase]) + ")" : "";
  return formatValue(cost.usd, "USD") + share;
}

// The rows of `scaleopt solve`'s table, from its JSON.
const ANSWER_ROWS = [
  ["params (active)", (a) => formatValue(a.params, "count") + (a.active_params !== a.params ? " (" + formatValue(a.active_params, "count") + " active)" : "")],
  ["pretraining tokens", (a) => formatValue(a.pretrain_tokens, "count")],
  ["over Chinchilla", (a) => plain(a.over_chinchilla) + "x (rule: " + formatValue(a.chinchilla_tokens, "count") + ")"],
  ["RL tokens", (a) => formatValue(a.rl_tokens, "count")],
  ["inference tokens", (a) => formatValue(a.inference_tokens, "count")],
  ["loss", (a) => plain(a.loss, 6)],
  ["cost: pretraining", (a) => costCell(a, "pretrain")],
  ["      RL", (a) => costCell(a, "rl")],
  ["      inference", (a) => costCell(a, "inference")],
  ["      total", (a) => costCell(a, "total") + (a.cost && a.cost.total ? ", " + plain(a.cost.total.flops) + " FLOPs" : "")],
  ["GPU-hours", (a) => a.cost && a.cost.total ? formatValue(a.cost.total.gpu_hours, "count") : "-"],
  ["training", (a) => a.training_chips === null ? "-" : formatValue(a.training_chips, "count") + " chips, " + plain(a.training_days) + " days"],
  ["power at the meter", (a) => "training " + (a.training_power_mw === null ? "-" : plain(a.training_power_mw) + "MW") + ", serving " + (a.serving_power_mw === null ? "-" : plain(a.serving_power_mw) + "MW")],
  ["energy", (a) => a.energy_mwh === null ? "-" : plain(a.energy_mwh) + " MWh" + (a.energy_usd === null ? "" : ", " + formatValue(a.energy_usd, "USD"))],
  ["vs Chinchilla, same loss", (a) => a.vs_chinchilla ? "params " + percent(a.vs_chinchilla.params) + ", tokens " + percent(a.vs_chinchilla.tokens) + ", cost " + percent(a.vs_chinchilla.cost) : "-"],
  ["solver", (a) => a.status + (a.algorithm ? " (" + a.algorithm + ")" : "")],
];

function showAnswer(answer, text) {
  document.getElementById("answer-json").textContent = text;
  const table = document.getElementById("answer-table");
  const columns = answerColumns(answer);
  const head = element("tr", {}, element("th", {text: ""}));
  for (const [name] of columns) head.appendChild(element("th", {text: name}));
  table.replaceChildren(head);
  for (const [label, cell] of ANSWER_ROWS) {
    const row = element("tr", {}, element("th", {text: label}));
    for (const [, a] of columns) {
      let value;
      try {
        value = cell(a);
      } catch (e) {
        value = "-";
      }
      row.appendChild(element("td", {text: value}));
    }
    table.appendChild(row);
  }
  const notes = [];
  if (answer.heuristic_overpay !== undefined && answer.heuristic_overpay !== null) {
    notes.push("the heuristic overpays " + percent(answer.heuristic_overpay) + " against the optimum");
  }
  notes.push(answer.message);
  document.getElementById("answer-message").textContent = notes.join("; ");
  const list = document.getElementById("assumptions");
  list.replaceChildren();
  for (const line of state.assumptions) {
    const key = line.split(" ")[0];
    if (!state.set.has(key)) list.appendChild(element("li", {text: line}));
  }
}

function sweepRequest(path) {
  const s = state.sliders.get(path);
  if (!s) return null;
  const points = s.whole ? Math.min(SWEEP_POINTS, Math.max(2, s.hi - s.lo + 1)) : SWEEP_POINTS;
  const body = {vary: path + "=" + exact(s.lo) + ".." + exact(s.hi) + ":" + (s.log ? "log" : "lin") + ":" + points};
  // Only the columns the chart draws, once the first sweep of the scenario has said which it
  // has: a 200-point sweep is 680 KB of JSON with all of them, 48 KB with these.
  if (state.sweepColumns) {
    body.columns = SERIES.map((series) => series[0]).filter((c) => state.sweepColumns.includes(c));
  }
  return requestBody(body);
}

// Chart.js 3 (Debian's libjs-chart.js), without animation: each answer is drawn at once.
function makeChart() {
  return new Chart(document.getElementById("chart"), {
    type: "line",
    data: {datasets: []},
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      spanGaps: false,
      interaction: {mode: "nearest", intersect: false},
      // Ticks in the units the inputs show (50M/s, $1B), not as raw digits.
      scales: {
        x: {type: "logarithmic", title: {display: true, text: ""},
            ticks: {callback: (value) => tickLabel(Number(value), state.chartAxis.unit, state.chartAxis.log)}},
        y: {type: "logarithmic", title: {display: true, text: "parameters, tokens"},
            ticks: {callback: (value) => tickLabel(Number(value), "count", true)}},
        cost: {type: "logarithmic", position: "right", title: {display: true, text: "lifetime cost (USD)"},
               grid: {drawOnChartArea: false},
               ticks: {callback: (value) => tickLabel(Number(value), "USD", true)}},
      },
      plugins: {legend: {position: "bottom"}},
    },
  });
}

const SERIES = [
  ["params", "parameters N", "#1f77b4", "y", []],
  ["pretrain_tokens", "pretraining tokens D", "#ff7f0e", "y", []],
  ["cost.total.usd", "lifetime cost", "#2ca02c", "cost", []],
  ["optimum.params", "optimum N (same loss)", "#1f77b4", "y", [6, 4]],
  ["optimum.pretrain_tokens", "optimum D (same loss)", "#ff7f0e", "y", [6, 4]],
];

// A log axis labels 1, 2 and 5 of each decade (as Chart.js does by default), in the unit.
function tickLabel(value, unit, log) {
  if (log && value > 0) {
    const mantissa = value / Math.pow(10, Math.floor(Math.log10(value) + 1e-9));
    if (![1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)) return "";
  }
  return formatValue(value, unit);
}

// The datasets are made again only when the axis or the series change; a move replaces their
// points and redraws ("none": no animation), which keeps Chart.js's work to drawing.
function drawChart(sweep, answer, path) {
  if (!state.chart) state.chart = makeChart();
  const chart = state.chart;
  const s = state.sliders.get(path);
  const input = state.inputs.find((i) => i.path === path);
  const current = state.set.has(path) && typeof state.set.get(path) === "number" ? state.set.get(path) : input.value;
  const shown = SERIES.filter(([column]) => sweep.columns.includes(column));
  const key = path + " " + s.lo + " " + s.hi + " " + shown.map((series) => series[0]).join(",");
  if (state.chartKey !== key) {
    state.chartKey = key;
    state.chartColumns = shown.map((series) => series[0]);
    state.chartAxis = {unit: input.unit, log: s.log};
    chart.data.datasets = shown.map(([, label, color, axis, dash]) => (
        {label, data: [], borderColor: color, backgroundColor: color, yAxisID: axis,
         borderDash: dash, pointRadius: 0, borderWidth: 2}));
    chart.data.datasets.push({label: "this answer", type: "scatter", data: [], yAxisID: "y",
                              borderColor: "#000", backgroundColor: "#000", pointRadius: 4});
    chart.options.scales.x.type = s.log ? "logarithmic" : "linear";
    chart.options.scales.x.title.text = path + (input.unit === "number" ? "" : " (" + input.unit + ")");
  }
  state.chartColumns.forEach((column, i) => {
    chart.data.datasets[i].data =
        sweep.rows.map((row) => ({x: row[path], y: row[column] > 0 ? row[column] : null}));
  });
  chart.data.datasets[state.chartColumns.length].data =
      [{x: current, y: answer.params}, {x: current, y: answer.pretrain_tokens}];
  chart.update("none");
}

function changed() {
  if (state.changedAt === null) state.changedAt = performance.now();
  if (state.inFlight) {
    state.pending = true;
    return;
  }
  refresh();
}

async function refresh() {
  state.inFlight = true;
  state.pending = false;
  const startedAt = state.changedAt;
  state.changedAt = null;
  document.body.dataset.state = "busy";
  document.getElementById("command-line").textContent = commandLine();
  const path = document.getElementById("chart-input").value;
  const sweepBody = sweepRequest(path);
  const solving = api("POST", "/api/solve", requestBody());
  const sweeping = sweepBody ? api("POST", "/api/sweep", sweepBody) : Promise.resolve(null);
  let ok = true;
  try {
    const solved = await solving;
    clearErrors();
    showAnswer(solved.json, solved.text);
    try {
      const swept = await sweeping;
      if (swept) {
        if (!state.sweepColumns) state.sweepColumns = swept.json.columns;
        drawChart(swept.json, solved.json, path);
      }
    } catch (error) {
      const box = document.getElementById("chart-error");
      box.textContent = error.message;
      box.hidden = false;
    }
  } catch (error) {
    ok = false;
    sweeping.catch(() => {});
    showError(error);
  }
  // The next frame is the one that shows the chart drawn above.
  await new Promise((resolve) => requestAnimationFrame(resolve));
  if (ok && startedAt !== null) {
    const ms = performance.now() - startedAt;
    state.redraws.push(ms);
    document.body.dataset.lastRedrawMs = String(ms);
  }
  document.body.dataset.answers = String(Number(document.body.dataset.answers || 0) + 1);
  state.inFlight = false;
  if (state.pending) {
    refresh();
  } else if (ok) {
    document.body.dataset.state = "idle";
  }
}

// ---- scenarios ---------------------------------------------------------------------------

async function loadScenario(choice) {
  state.set.clear();
  state.sweepColumns = null;
  state.lastChanged = null;
  if (choice.startsWith("served:")) {
    const {json} = await api("GET", "/api/served");
    state.source = {served: json.file};
    state.file = json.file;
    state.text = json.text;
  } else {
    const {json} = await api("GET", "/api/example?name=" + encodeURIComponent(choice));
    state.source = {example: json.name};
    state.file = json.file;
    state.text = json.text;
  }
  try {
    const {json} = await api("POST", "/api/inputs", requestBody());
    clearErrors();
    applyInputs(json);
    changed();
  } catch (error) {
    document.getElementById("menus").replaceChildren();
    document.getElementById("controls").replaceChildren();
    showError(error);
  }
}

async function start() {
  const menu = document.getElementById("scenario-menu");
  const {json} = await api("GET", "/api/examples");
  if (json.served) menu.appendChild(element("option", {value: "served:" + json.served, text: json.served}));
  for (const name of json.examples) menu.appendChild(element("option", {value: name, text: name}));
  const wanted = new URLSearchParams(location.search).get("example");
  if (wanted && json.examples.includes(wanted)) menu.value = wanted;
  else if (!json.served && json.examples.includes("frontier_100x")) menu.value = "frontier_100x";
  menu.addEventListener("change", () => loadScenario(menu.value));
  document.getElementById("chart-input").addEventListener("change", changed);
  document.getElementById("copy-command").addEventListener("click", copyCommand);
  document.getElementById("download-toml").addEventListener("click", downloadToml);
  await loadScenario(menu.value);
}

// What the browser test reads beside the page's text.
window.scaleopt = {state, commandLine, scenarioToml, formatValue};

start().catch(showError);
