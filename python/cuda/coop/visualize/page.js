// Draws one cuda.coop visualization. The page embeds, gzip-compressed, a tree
// of control values whose leaves are frames computed in Python from
// cuda.coop._models; this script only selects a frame and draws it.
"use strict";

const GRAY = -1, SPECIAL = -2;
const CELL_W = 30, CELL_H = 22, THREAD_GAP = 8, LABEL_H = 14, MAX_WIDTH = 960;

async function inflate(base64) {
  const bytes = Uint8Array.from(atob(base64.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

function readHash() {
  const state = {};
  for (const part of location.hash.replace(/^#/, "").split("&")) {
    const [key, value] = part.split("=");
    if (key) state[decodeURIComponent(key)] = decodeURIComponent(value || "");
  }
  return state;
}

function writeHash(state) {
  const parts = Object.entries(state).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  history.replaceState(null, "", "#" + parts.join("&"));
}

// The chosen option index at each level, and the leaf reached.
function walk(tree, state) {
  const levels = [];
  let node = tree;
  while (node.control) {
    const values = node.options.map((o) => o[0]);
    let index = values.indexOf(state[node.control]);
    if (index < 0) index = Math.max(0, values.indexOf(node.default));
    state[node.control] = values[index];
    levels.push({ node, index });
    node = node.options[index][1];
  }
  return levels;
}

// Undo the sibling-delta encoding of a frame (see _frames.py).
function resolve(options, index) {
  const entry = options[index][1];
  if (entry.full) return entry.full;
  const previous = resolve(options, index - 1);
  const frame = { caption: entry.delta.caption, panels: previous.panels.map((p) => ({
    ...p, labels: p.labels.slice(), colors: p.colors.slice() })) };
  for (const [panel, cell, label, color] of entry.delta.set) {
    frame.panels[panel].labels[cell] = label;
    frame.panels[panel].colors[cell] = color;
  }
  return frame;
}

function buildControls(root, tree, state, redraw) {
  root.replaceChildren();
  for (const { node, index } of walk(tree, state)) {
    const label = document.createElement("label");
    label.textContent = node.control + " ";
    const values = node.options.map((o) => o[0]);
    let input;
    if (node.widget === "range") {
      input = document.createElement("input");
      input.type = "range";
      input.min = 0;
      input.max = values.length - 1;
      input.value = index;
      const shown = document.createElement("output");
      shown.textContent = values[index];
      input.addEventListener("input", () => {
        shown.textContent = values[input.value];
        redraw(node.control, values[input.value]);
      });
      label.append(input, " ", shown);
    } else {
      input = document.createElement("select");
      for (const value of values) input.add(new Option(value, value));
      input.value = values[index];
      input.addEventListener("change", () => redraw(node.control, input.value));
      label.append(input);
    }
    input.name = node.control;
    root.append(label);
  }
}

function svgElement(name, attributes) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

function cell(x, y, label, color, data) {
  const group = svgElement("g", { class: "cell" });
  for (const [key, value] of Object.entries(data)) group.dataset[key] = value;
  const fill = color === GRAY ? "#eeeeee" : color === SPECIAL ? "#37474f"
    : `hsl(${Math.round(color * 300)}, 70%, 80%)`;
  group.append(svgElement("rect", { x, y, width: CELL_W - 2, height: CELL_H - 2, rx: 3, fill }));
  const text = svgElement("text", { x: x + (CELL_W - 2) / 2, y: y + CELL_H / 2 + 3,
    "text-anchor": "middle", fill: color === SPECIAL ? "#ffffff" : color === GRAY ? "#888888"
      : "#1a1a1a" });
  text.textContent = label;
  group.append(text);
  return group;
}

function drawPanel(panel, number) {
  const figure = document.createElement("figure");
  const caption = document.createElement("figcaption");
  caption.textContent = panel.title;
  const count = panel.labels.length;
  let svg;
  if (panel.kind === "memory") {
    const perRow = Math.min(count, 32);
    const rows = Math.ceil(count / perRow);
    svg = svgElement("svg", { width: 40 + perRow * CELL_W, height: rows * CELL_H + 4 });
    for (let row = 0; row < rows; row++) {
      const index = svgElement("text", { x: 34, y: row * CELL_H + CELL_H / 2 + 3,
        "text-anchor": "end", class: "axis" });
      index.textContent = `[${row * perRow}]`;
      svg.append(index);
    }
    panel.labels.forEach((label, k) => {
      svg.append(cell(40 + (k % perRow) * CELL_W, Math.floor(k / perRow) * CELL_H, label,
        panel.colors[k], { index: k }));
    });
  } else {
    const ipt = panel.ipt, threads = count / ipt;
    const boxW = ipt * CELL_W + THREAD_GAP, boxH = CELL_H + LABEL_H + 4;
    const perRow = Math.max(1, Math.min(threads, Math.floor(MAX_WIDTH / boxW), 16));
    const rows = Math.ceil(threads / perRow);
    svg = svgElement("svg", { width: perRow * boxW, height: rows * boxH });
    for (let t = 0; t < threads; t++) {
      const x = (t % perRow) * boxW, y = Math.floor(t / perRow) * boxH;
      const name = svgElement("text", { x, y: y + LABEL_H - 3, class: "axis" });
      name.textContent = `thread ${t}`;
      svg.append(name);
      for (let i = 0; i < ipt; i++) {
        const k = t * ipt + i;
        svg.append(cell(x + i * CELL_W, y + LABEL_H, panel.labels[k], panel.colors[k],
          { thread: t, item: i }));
      }
    }
  }
  svg.dataset.panel = number;
  svg.dataset.kind = panel.kind;
  figure.append(caption, svg);
  return figure;
}

async function main() {
  const tree = await inflate(document.getElementById("coop-data").textContent);
  const state = readHash();
  const controls = document.getElementById("controls");
  const drawing = document.getElementById("drawing");
  const note = document.getElementById("caption");

  function redraw(changed, value) {
    if (changed) state[changed] = value;
    buildControls(controls, tree, state, redraw);
    const levels = walk(tree, state);
    const last = levels[levels.length - 1];
    const frame = resolve(last.node.options, last.index);
    drawing.replaceChildren(...frame.panels.map(drawPanel));
    note.textContent = frame.caption;
    writeHash(state);
    document.body.dataset.state = JSON.stringify(state);
  }
  redraw();
}

main();
