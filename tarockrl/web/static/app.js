// tarockrl browser play: talks to the JSON API of tarockrl/web/app.py. No build step.
"use strict";
const $ = (id) => document.getElementById(id);
let meta = null, game = null;  // game: {id, version, view}

const SUITS = {
  dreierles: {H: ["♥", true], D: ["♦", true], C: ["♣", false], S: ["♠", false]},
  dreiertarock: {H: ["♥", true], D: ["♦", true], C: ["♣", false], S: ["♠", false]},
  tatteln: {H: ["♥", true], D: ["♦", true], C: ["♣", false], S: ["♠", false]},
  troccas: {c: ["♡", true], o: ["◇", true], b: ["♧", false], s: ["♤", false]},
};
const SUIT_NAMES = {c: "cups", o: "coins", b: "batons", s: "swords", H: "hearts", D: "diamonds", C: "clubs", S: "spades"};

function cardFace(g, code) {
  // -> {rank, suit, cls, title}
  if (g !== "tatteln" && /^T\d+$/.test(code)) return {rank: code.slice(1), suit: "★", cls: "trump", title: "trump " + code.slice(1)};
  if ((g === "dreierles" && code === "ST") || code === "SKS") return {rank: "Sk", suit: "★", cls: "trump", title: "Sküs / Stieß"};
  if (code === "FOOL") return {rank: "Fool", suit: "★", cls: "trump", title: "the Fool"};
  const s = SUITS[g][code[0]];
  let rank = code.slice(1);
  if (g === "tatteln" && rank === "T") rank = "10";
  if (!s) return {rank: code, suit: "", cls: "", title: code};
  return {rank: rank, suit: s[0], cls: s[1] ? "red" : "", title: rank + " of " + SUIT_NAMES[code[0]]};
}

function cardEl(g, code, tag) {
  const f = cardFace(g, code);
  const el = document.createElement(tag || "span");
  el.className = "card " + f.cls;
  el.title = f.title + " (" + code + ")";
  el.dataset.card = code;
  el.innerHTML = "";
  const r = document.createElement("span"); r.textContent = f.rank; el.appendChild(r);
  const s = document.createElement("span"); s.className = "suit"; s.textContent = f.suit; el.appendChild(s);
  return el;
}

async function api(method, path, body) {
  const opts = {method: method, headers: {}};
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const r = await fetch(path, opts);
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || ("HTTP " + r.status));
  return data;
}

function showError(msg) { $("error").textContent = msg || ""; }

function fillSeats() {
  const n = meta.games[$("game").value].players;
  const sel = $("seat"); sel.innerHTML = "";
  for (let i = 0; i < n; i++) { const o = document.createElement("option"); o.value = i; o.textContent = i; sel.appendChild(o); }
}

async function init() {
  meta = await api("GET", "/api/meta");
  for (const g of Object.keys(meta.games)) {
    const o = document.createElement("option"); o.value = g; o.textContent = g + " (" + meta.games[g].players + " players)";
    $("game").appendChild(o);
  }
  $("game").onchange = fillSeats; fillSeats();
  $("agents").textContent = "agents: " + Object.keys(meta.agents).join(", ");
  $("start").onclick = start;
  $("hint").onclick = hint;
}

async function start() {
  showError("");
  const body = {game: $("game").value, seat: parseInt($("seat").value, 10),
                opponents: $("opponents").value.split(",").map((s) => s.trim()).filter((s) => s)};
  if ($("seed").value.trim() !== "") body.seed = parseInt($("seed").value, 10);
  try { game = await api("POST", "/api/games", body); render(); } catch (e) { showError(e.message); }
}

async function play(actionId) {
  showError(""); $("hinttext").textContent = "";
  try {
    game = await api("POST", "/api/games/" + game.id + "/action", {seat: game.view.seat, action: actionId, version: game.version});
  } catch (e) { showError(e.message); }
  render();
}

async function hint() {
  try { const h = await api("GET", "/api/games/" + game.id + "/hint"); $("hinttext").textContent = "hint: " + h.name; }
  catch (e) { $("hinttext").textContent = e.message; }
}

function trickEl(g, v, cards) {
  const box = document.createDocumentFragment();
  for (const c of cards) {
    const w = document.createElement("span"); w.className = "played";
    w.appendChild(cardEl(g, c.card));
    const l = document.createElement("span"); l.textContent = v.names[c.seat]; w.appendChild(l);
    box.appendChild(w);
  }
  return box;
}

function render() {
  const v = game.view, g = v.game;
  $("table").hidden = false;
  document.body.dataset.state = v.terminal ? "over" : (v.your_turn ? "yourturn" : "waiting");
  const st = $("status");
  st.className = "panel" + (v.your_turn ? " yourturn" : "");
  st.textContent = g + " — you are seat " + v.seat + ". " + (v.terminal ? "The deal is over." :
    (v.your_turn ? "Your move." : "Waiting for " + (v.to_move === null ? "the other seats" : v.names[v.to_move]) + "."));
  $("trick").replaceChildren(trickEl(g, v, v.trick));
  const lt = $("lasttrick"); lt.replaceChildren();
  if (v.last_trick) {
    lt.appendChild(trickEl(g, v, v.last_trick.cards));
    if (v.last_trick.winner !== null) { const w = document.createElement("span"); w.className = "dim"; w.textContent = "won by " + v.names[v.last_trick.winner]; lt.appendChild(w); }
  }
  const sc = $("scores"); sc.innerHTML = "<tr><th>seat</th><th>tricks</th>" + (v.points ? "<th>points</th>" : "") + (v.returns ? "<th>result</th>" : "") + "</tr>";
  for (let i = 0; i < v.num_players; i++) {
    const tr = document.createElement("tr");
    const cells = [v.names[i], String(v.tricks_won[i])];
    if (v.points) cells.push(String(v.points[i]));
    if (v.returns) cells.push((v.returns[i] > 0 ? "+" : "") + v.returns[i]);
    for (const c of cells) { const td = document.createElement("td"); td.textContent = c; tr.appendChild(td); }
    sc.appendChild(tr);
  }
  const hist = $("history"); hist.replaceChildren();
  for (const h of v.history) { const li = document.createElement("li"); li.textContent = v.names[h.seat] + ": " + h.text; hist.appendChild(li); }
  const shown = $("shown"); shown.replaceChildren();
  for (const b of v.shown) {
    const d = document.createElement("div"); d.className = "shownblock";
    const h = document.createElement("h2"); h.textContent = b.label; d.appendChild(h);
    const cs = document.createElement("div"); cs.className = "cards small";
    for (const c of b.cards) cs.appendChild(cardEl(g, c));
    d.appendChild(cs); shown.appendChild(d);
  }
  const byCard = {};
  for (const a of v.legal) if (a.card !== null) byCard[a.card] = a;
  const hand = $("hand"); hand.replaceChildren();
  for (const code of v.hand) {
    const b = cardEl(g, code, "button");
    const a = byCard[code];
    if (a) { b.classList.add("legal"); b.dataset.action = a.id; b.title = a.name; b.onclick = () => play(a.id); }
    else b.disabled = true;
    hand.appendChild(b);
  }
  const acts = $("actions"); acts.replaceChildren();
  for (const a of v.legal) {
    if (a.card !== null) continue;
    const b = document.createElement("button"); b.className = "action"; b.dataset.action = a.id;
    b.textContent = a.name; b.onclick = () => play(a.id); acts.appendChild(b);
  }
  $("hint").hidden = !v.your_turn;
  const res = $("result");
  res.hidden = !v.terminal;
  if (v.terminal) res.textContent = "Settlement: " + v.returns.map((r, i) => v.names[i] + " " + (r > 0 ? "+" : "") + r).join(", ") + " game points.";
  $("record").href = "/api/games/" + game.id + "/record";
}

init().catch((e) => showError(e.message));
