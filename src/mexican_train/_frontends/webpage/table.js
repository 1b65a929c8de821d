// The web table of `mexican-train serve`: plain JavaScript, no build step.
//
// The seat's token comes from the URL's fragment (#token=...), which browsers never
// send to the server, and travels in the Authorization header only.  The page asks
// GET /api/view once, then follows the table on a WebSocket (falling back on a long
// poll, GET /api/view?since=N), and sends moves with POST /api/move; the server checks
// every move with apply().
"use strict";

const MEXICAN = -1;
const token = new URLSearchParams(location.hash.slice(1)).get("token");
let doc = null;       // the seat's latest document
let selected = null;  // the tile chosen in the hand, as "a-b"
let sentFrom = null;  // the version of the table a move in flight was chosen from
let sends = 0;  // the moves sent: the last one's answer has the last word on errors
let expanded = new Set();  // the trains whose first tiles are unfolded, this round
let round = null;         // the round they are unfolded in
let logShown = [];        // the log's lines on the page

const $ = (id) => document.getElementById(id);

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

async function api(path, body) {
  const headers = {"Authorization": "Bearer " + token};
  const options = {headers, cache: "no-store"};
  if (body !== undefined) {
    options.method = "POST";
    options.body = JSON.stringify(body);
    headers["Content-Type"] = "application/json";
  }
  const answer = await fetch(path, options);
  let data;
  try {
    data = await answer.json();
  } catch (error) {
    data = {error: "bad answer", reason: "the server's answer was not JSON"};
  }
  return {ok: answer.ok, status: answer.status, data};
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// -- what is shown -----------------------------------------------------------------------

// A train's name, and the train inside a sentence (board.js words both).
function trainName(train) {
  return ownerWords(train, doc);
}

function trainPhrase(train) {
  return ownerPhrase(train, doc);
}

function shortName(name) {
  return name.replace(/ \(.*\)$/, "");  // "Seat 2 (planner)" heads a column as "Seat 2"
}

function playsOf(tile) {
  return doc.moves.filter((move) => move.kind === "play" && move.tile === tile);
}

// The hand is one stop of the Tab key (a roving tabindex): the tile focused there, else
// the chosen one, else the first playable one, else the first; the arrows move along it.
function handStop(hand) {
  const focused = document.activeElement && document.activeElement.closest("#hand [data-tile]");
  const kept = focused ? focused.dataset.tile : selected;
  if (kept && hand.includes(kept)) return kept;
  return hand.find((tile) => playsOf(tile).length > 0) || hand[0];
}

// Where a tile may go, in words: "your train or the Mexican train".
function placesOf(tile) {
  const phrases = [...new Set(playsOf(tile).map((move) => move.train))].map(trainPhrase);
  if (phrases.length < 2) return phrases.join("");
  return phrases.slice(0, -1).join(", ") + " or " + phrases[phrases.length - 1];
}

function showHand() {
  const stop = handStop(doc.view.hand);
  const tiles = doc.view.hand.map((tile) => {
    const playable = playsOf(tile).length > 0;
    const [a, b] = tile.split("-");
    const button = element("button", null, {
      "class": "hand-tile" + (playable ? " playable" : "") + (tile === selected ? " selected" : ""),
      "data-tile": tile,
      "tabindex": tile === stop ? "0" : "-1",
      // Chosen is said once, as the pressed state: the label names the tile and where
      // it may go, as the lit trains show the eye once it is chosen.
      "aria-pressed": String(tile === selected),
      "aria-label": `${a} and ${b}` + (playable ? `, playable on ${placesOf(tile)}` : ""),
    });
    tileHalves(button, Number(a), Number(b));
    if (tile === selected) button.append(element("span", "\u2713", {"class": "chosen", "aria-hidden": "true"}));
    button.addEventListener("click", () => choose(tile));
    button.addEventListener("keydown", (event) => handKey(event, tile));
    button.addEventListener("focus", () => {
      for (const other of $("hand").querySelectorAll("button.hand-tile")) other.tabIndex = -1;
      button.tabIndex = 0;
    });
    return button;
  });
  $("hand").replaceChildren(...tiles);
  $("hand-title").textContent = `Your hand: ${tiles.length} tile${tiles.length === 1 ? "" : "s"}`;
}

function showBoard() {
  if (round !== doc.view.round_number) {
    round = doc.view.round_number;
    expanded = new Set();
  }
  const targets = selected ? playsOf(selected).map((move) => move.train) : [];
  $("board").replaceChildren(...drawBoard(doc, {
    selected,
    targets,
    // As many large tiles as a row holds beside its "+N tiles" and open end (83 px each).
    shown: Math.max(2, Math.floor(($("board").clientWidth - 230) / 83)),
    expanded,
    onPlay: playOn,
    onFold: (train) => {
      if (!expanded.delete(train)) expanded.add(train);
      redraw(showBoard);
    },
  }));
}

// The log: every line of the round, the newest at the bottom, in view.  Only new lines
// are added, so that a screen reader announces them alone (role="log").
function showLog() {
  const lines = doc.log;
  const box = $("log");
  const following = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
  const continues = lines.length >= logShown.length
    && logShown.every((line, index) => lines[index] === line);
  if (continues) {
    box.append(...lines.slice(logShown.length).map((line) => element("li", line)));
  } else {
    box.replaceChildren(...lines.map((line) => element("li", line)));
  }
  if (following || !continues) box.scrollTop = box.scrollHeight;  // unless reading back
  logShown = lines.slice();
}

function showControls() {
  const mine = doc.moves.length > 0;
  const plays = selected ? playsOf(selected) : [];
  let hint = "";
  if (doc.view.is_over) hint = "";
  else if (doc.view.current_player === null) {
    hint = "The round is over: any person at the table may deal the next one (E4).";
  } else if (!mine) hint = "Waiting for the others\u2026";
  else if (selected) hint = `Now choose a lit train for ${selected} (click it, or Tab to it and press Enter); Escape puts the tile back.`;
  else if (doc.moves.some((move) => move.kind === "play")) hint = "Choose a tile in your hand, then a train.";
  else hint = "No tile of yours fits: choose a move below.";
  $("hint").textContent = hint;

  const trains = [];
  if (doc.moves.some((move) => move.kind === "play")) {
    const ids = [...doc.names.keys(), MEXICAN];
    for (const train of ids) {
      const button = element("button", trainName(train), {"data-train": String(train)});
      const legal = plays.some((move) => move.train === train);
      button.disabled = !legal;
      if (legal) {
        // Named for what it does: the train's name alone says nothing of the tile.
        button.classList.add("target");
        button.setAttribute("aria-label", `Play ${selected} on ${trainPhrase(train)}`);
      }
      button.addEventListener("click", () => playOn(train));
      trains.push(button);
    }
  }
  $("trains").replaceChildren(...trains);
  // The status line and the scores say it all once the game is over, unless the panel
  // holds why a new game could not be dealt (see again()); a spectator has no hand and
  // no moves.
  $("controls").hidden = (doc.view.is_over && !$("error").textContent) || doc.seat < 0;
  $("hand-area").hidden = doc.seat < 0;
  $("skip").hidden = doc.seat < 0;

  const actions = doc.moves
    .filter((move) => move.kind !== "play")
    .map((move) => {
      const button = element("button", move.words, {"data-kind": move.kind});
      button.addEventListener("click", () => send(move.notation));
      return button;
    });
  $("actions").replaceChildren(...actions);
}

// The scores: a column per seat, a row per round and one of totals, each with its header;
// a winner's total has a star for the eye and the word for a screen reader.
function showScores() {
  const head = element("tr");
  head.append(
    element("th", "Round", {scope: "col"}),
    ...doc.names.map((name) => element("th", shortName(name), {scope: "col", title: name})),
  );
  const rows = doc.scores.rounds.map((points, index) => {
    const row = element("tr");
    row.append(element("th", String(index + 1), {scope: "row"}),
               ...points.map((p) => element("td", String(p))));
    return row;
  });
  const total = element("tr", null, {class: "total"});
  total.append(element("th", "Total", {scope: "row"}));
  doc.scores.totals.forEach((points, seat) => {
    const cell = element("td", String(points));
    if (doc.winners.includes(seat)) {
      cell.classList.add("winner");
      cell.append(element("span", "\u2605", {"class": "win-mark", "aria-hidden": "true"}),
                  element("span", " (winner)", {"class": "visually-hidden"}));
    }
    total.append(cell);
  });
  $("scores").replaceChildren(head, ...rows, total);
}

// -- what a screen reader hears ----------------------------------------------------------
//
// The log and the status line are not live regions: with several bots they would read
// every move and every turn as it comes.  A person hears, in #said (a log: each addition
// is read, none lost when two come together):
// - when their turn comes, and when a round or the game ends, the status line and, in one
//   announcement, what the others did since their last turn (the log's lines but their own);
// - while they wait, only what changes their next turn or the round: a double left open
//   for the next player, which binds everyone until it is covered (D2), a marker on another
//   player's train, opening it to them (P6), a player down to one tile;
// - the table lost and found again, once each.
// A spectator has no turn: each new line of the log is read as it comes.
let told = 0;               // the round's log lines said, or read past while it was one's turn
let doublesTold = new Set();  // the open doubles said this round, as "train:tiles"

function say(words) {
  const box = $("said");
  box.append(element("p", words));
  // The region is hidden from the eye: the last few lines are enough to read back.
  while (box.childElementCount > 8) box.firstElementChild.remove();
}

function phaseOf(d) {
  return d.view.is_over ? "game-over"
    : d.view.current_player === null ? "round-over"
    : d.moves.length > 0 ? "my-turn" : "waiting";
}

function trainOf(d, train) {
  return d.view.trains[train === MEXICAN ? d.view.trains.length - 1 : train];
}

// An open double, once said, is not said again this round: its train and length name it.
function doubleKey(d, train) {
  return `${train}:${trainOf(d, train).tiles.length}`;
}

function lastTile(train) {
  const tiles = trainOf(doc, train).tiles;
  return tiles[tiles.length - 1];
}

// Doubles in words: "5-5 on your train and 3-3 on the Mexican train".
function doublesPhrase(trains) {
  const each = trains.map((train) => `${lastTile(train)} on ${trainPhrase(train)}`);
  return each.slice(0, -1).join(", ") + " and " + each[each.length - 1];
}

function tell(before, now) {
  const lines = now.log;
  if (!before) {  // the page just opened: where the table is, the log is there to read
    told = lines.length;
    say(now.status);
    return;
  }
  const sameRound = before.view.round_number === now.view.round_number
    && lines.length >= told && before.log.every((line, index) => lines[index] === line);
  if (!sameRound) {
    told = 0;
    doublesTold = new Set();
  }
  const fresh = lines.slice(told);
  if (now.seat < 0) {
    told = lines.length;
    if (fresh.length > 0) say(fresh.join(" "));
    return;
  }
  const phase = phaseOf(now);
  const theirs = fresh.filter((line) => !line.startsWith("You "));
  if (phase !== phaseOf(before) && phase !== "waiting") {
    const parts = [now.status];
    if (theirs.length > 0) parts.push((phase === "my-turn" ? "Since your last turn: " : "") + theirs.join(" "));
    if (phase === "my-turn") {
      for (const train of now.must_cover) doublesTold.add(doubleKey(now, train));
      if (now.must_cover.length > 1) {  // any one of them (V3)
        parts.push(`First cover one of the doubles ${doublesPhrase(now.must_cover)} (D2, V3).`);
      } else if (now.must_cover.length > 0 && now.dead_doubles.includes(now.must_cover[0])) {
        parts.push(`The double ${lastTile(now.must_cover[0])} on ${trainPhrase(now.must_cover[0])} binds, and nothing can cover it (V4).`);
      } else if (now.must_cover.length > 0) {
        parts.push(`First cover the double ${lastTile(now.must_cover[0])} on ${trainPhrase(now.must_cover[0])} (D2).`);
      }
    }
    say(parts.join(" "));
    told = lines.length;
    return;
  }
  if (phase !== "waiting") {  // the person's own moves: nothing to say
    told = lines.length;
    return;
  }
  // Waiting: only what changes the person's next turn.  The lines stay to be summed up.
  const alerts = [];
  const trains = now.view.trains;
  now.view.hand_sizes.forEach((size, seat) => {
    if (seat !== now.seat && size === 1 && before.view.hand_sizes[seat] > 1) {
      alerts.push(`${now.names[seat]} has one tile left.`);
    }
  });
  now.names.forEach((name, seat) => {
    if (seat !== now.seat && trains[seat].marked && !before.view.trains[seat].marked) {
      alerts.push(`A marker is on ${trainPhrase(seat)}: you may play there (P6).`);
    }
  });
  // A double the person left open themselves is no news to them.
  if (now.view.current_player !== before.view.current_player && before.view.current_player !== now.seat) {
    const untold = now.must_cover.filter((train) => !doublesTold.has(doubleKey(now, train)));
    for (const train of untold) doublesTold.add(doubleKey(now, train));
    if (untold.length > 0 && now.must_cover.length > 1) {  // any one of them (V3)
      alerts.push(`The doubles ${doublesPhrase(now.must_cover)} are open: one of them must be covered first (D2, V3).`);
    } else if (untold.length > 0 && now.dead_doubles.includes(untold[0])) {
      alerts.push(`The double ${lastTile(untold[0])} on ${trainPhrase(untold[0])} is left open: nothing can cover it, yet it binds (V4).`);
    } else if (untold.length > 0) {
      alerts.push(`The double ${lastTile(untold[0])} on ${trainPhrase(untold[0])} is left open: it must be covered first (D2).`);
    }
  }
  if (alerts.length > 0) say(alerts.join(" "));
}

function show(next) {
  // The answers to a move and to the long poll may arrive in either order: never go
  // back to an older document (the table's version only grows).
  if (doc && next.version < doc.version) return;
  // A new game, dealt by anyone: why one could not be dealt is said no more.
  if (doc && doc.view.is_over && !next.view.is_over) $("error").textContent = "";
  const before = doc;
  doc = next;
  tell(before, doc);
  if (selected && (!doc.view.hand.includes(selected) || playsOf(selected).length === 0)) {
    selected = null;
  }
  $("nolink").hidden = true;
  $("game").hidden = false;
  // For tests and style sheets: which move the page shows, and what it waits for.
  document.body.dataset.version = String(doc.version);
  document.body.dataset.phase = phaseOf(doc);
  // Written only when its words change (someone came or went: the same words).
  if ($("status").textContent !== doc.status) $("status").textContent = doc.status;
  $("status").classList.toggle("your-turn", doc.moves.length > 0);
  // In words, which a screen reader says plainly (a symbol it would read by its name).
  document.title = (doc.moves.length > 0 ? "Your turn \u2013 " : "") + "Mexican Train";
  // A finished game: any person may deal a new one at the same table (same links).
  // Dealt from another page, the button goes: its focus goes to the new hand.
  const leaving = document.activeElement === $("again");
  $("again").hidden = !(doc.view.is_over && doc.seat >= 0);
  redraw(() => {
    showBoard();
    showHand();
    showControls();
  });
  if (leaving && $("again").hidden) refocus();
  // Parked on a tile that cannot be played while the others moved, the focus goes to
  // where the turn starts once it comes back (unless the person has moved it since).
  const at = document.activeElement;
  if (parked && doc.moves.length > 0 && at && at.matches("#hand .hand-tile:not(.playable)")
      && at.dataset.tile === parked) {
    refocus();
  }
  showScores();
  showLog();
}

// Draw the board, hand and controls again, the focus kept on the same tile, train or
// button if it is still there (each has a data-tile, data-train or data-kind, or is a
// train's fold or play button), else given to the hand.
function redraw(draw) {
  const focused = document.activeElement;
  const region = focused && focused.closest("#board, #hand, #trains, #actions");
  let again = null;
  if (region) {
    const named = focused.closest("[data-tile], [data-train], [data-kind]");
    const [key, value] = named ? Object.entries(named.dataset)[0] : [null, null];
    const attribute = key && key.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
    const part = ["button.more", ".train-play"].find((inner) => focused.matches(inner));
    again = attribute && `#${region.id} [data-${attribute}="${value}"]` + (part ? ` ${part}` : "");
  }
  draw();
  if (!region) return;
  const target = again && document.querySelector(again);
  if (target && target.tabIndex >= 0 && !target.disabled) target.focus();
  else refocus();
}

// -- what the player does ----------------------------------------------------------------

function choose(tile) {
  if (!doc || playsOf(tile).length === 0) {
    if (doc && doc.moves.length > 0) $("error").textContent = `${tile} cannot be played now.`;
    return;
  }
  $("error").textContent = "";
  selected = selected === tile ? null : tile;
  redraw(() => {
    showBoard();
    showHand();
    showControls();
  });
  $("hand").querySelector(`[data-tile="${tile}"]`).focus();
}

// The keyboard in the hand: the arrows move along it, Home and End to its ends.
function handKey(event, tile) {
  const buttons = [...$("hand").querySelectorAll("button.hand-tile")];
  const index = buttons.findIndex((button) => button.dataset.tile === tile);
  const step = {ArrowRight: 1, ArrowLeft: -1}[event.key];
  let next = null;
  if (step) next = buttons[(index + step + buttons.length) % buttons.length];
  else if (event.key === "Home") next = buttons[0];
  else if (event.key === "End") next = buttons[buttons.length - 1];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && selected) choose(selected);  // put the chosen tile back
});

function playOn(train) {
  const move = selected && playsOf(selected).find((m) => m.train === train);
  if (move) send(move.notation);
}

// Give the focus to the hand: its first playable tile, else a move's button, else "New
// game at this table" once the game is over, else a tile.  A tile given the focus is
// parked there until the person presses a key or touches the page.
let parked = null;  // the tile the focus was parked on, as "a-b"

function refocus() {
  const next = $("hand").querySelector(".hand-tile.playable") || $("actions").querySelector("button")
    || ($("again").hidden ? null : $("again")) || $("hand").querySelector(".hand-tile");
  if (next) next.focus();
  parked = next && next.dataset.tile ? next.dataset.tile : null;
}

for (const kind of ["keydown", "pointerdown"]) {
  document.addEventListener(kind, () => { parked = null; }, true);
}

async function send(notation) {
  // One move from each table shown: a second click before the answer is not a second
  // move.  The table the move made may come over the WebSocket before the answer: the
  // next move, chosen from it, is sent then.
  if (!doc || doc.version === sentFrom) return;
  const from = doc.version;
  const sent = ++sends;
  sentFrom = from;
  try {
    const answer = await api("/api/move", {move: notation, version: from});
    if (answer.ok) {
      // A late answer is older than the table shown: show() keeps the tile chosen since
      // (the one played has left the hand: show() lets it go), and what the page says of
      // a move sent since stays.
      if (sent === sends) $("error").textContent = "";
      show(answer.data);
    } else if (answer.status === 410) {
      goneAnswer(answer);
    } else {
      $("error").textContent = answer.data.reason || answer.data.error;
      if (answer.status === 409) await refresh();
    }
  } catch (error) {
    // The move may or may not have arrived: the page looks at the table again (when the
    // server answers), and says what to do, rather than playing it twice.
    $("error").textContent = "No answer from the server: if your move is not on the table, make it again.";
    try {
      await refresh();
    } catch (again) {
      // Unreachable still: the WebSocket's loop says so, and catches up once it is back.
    }
  } finally {
    if (sentFrom === from) sentFrom = null;
  }
}

// -- keeping up with the table ------------------------------------------------------------

function refused(answer) {
  $("game").hidden = true;
  $("nolink").hidden = false;
  // The server's reason, and the page's own words on where a seat's link comes from.
  $("nolink-reason").textContent = `The server refused this link: ${answer.data.reason || answer.data.error}.`;
  $("nolink-reason").hidden = false;
  $("status").textContent = "Not seated.";
  // The game the focus may have been in is hidden: the focus goes to what happened, read
  // once as it arrives there (the status line is not live).
  $("nolink-reason").focus();
}

// The table has expired: nobody played at it for the server's idle time (410, or the
// WebSocket closed with 4410).  The page says so in the server's words, and points to the
// lobby for a new table.
function expired(reason) {
  gone("expired", reason || "nobody played at this table for a long time, so it has expired");
}

// The table has closed (410 {"error": "closed"}, or the WebSocket closed with 4404): the
// program serving it plays no more games at it.  The page says so as for an expired table.
function closedTable(reason) {
  gone("closed", reason || "this table has closed");
}

// A 410 answer to any request: the table has closed, or else expired.
function goneAnswer(answer) {
  if (answer.data.error === "closed") closedTable(answer.data.reason);
  else expired(answer.data.reason);
}

function gone(how, said) {
  // The focus, in the game, on its "New game" button or nowhere, goes to the way to a new
  // table; what happened is said once.
  const focused = document.activeElement;
  const lost = !focused || focused === document.body || focused.closest("#game, #again") !== null;
  timerEnds = null;
  $("game").hidden = true;
  $("again").hidden = true;
  $("timer").hidden = true;
  $("presence").textContent = "";
  $("nolink").hidden = false;
  $("nolink-title").textContent = `This table has ${how}`;
  $("nolink-reason").textContent = said.charAt(0).toUpperCase() + said.slice(1) + ".";
  $("nolink-reason").hidden = false;
  $("nolink-help").hidden = true;
  $("nolink-lobby").hidden = false;
  $("status").textContent = `This table has ${how}.`;
  $("status").classList.remove("your-turn");
  document.title = "Mexican Train";
  document.body.dataset.live = "no";
  say($("status").textContent + " " + $("nolink-reason").textContent);
  if (lost) $("nolink-lobby").querySelector("a").focus();
}

async function refresh() {
  const answer = await api("/api/view");
  if (answer.ok) received(answer.data);
  return answer;
}

// The table's changes arrive on a WebSocket (/api/ws): its first message is the seat's
// token, then the server pushes the seat's document at every move and whenever someone
// comes or goes.  When the socket closes the page opens another, waiting longer after
// each failure (at most MAX_WAIT ms); where no socket delivers, it long-polls
// GET /api/view?since=N for a while, then tries a socket again.
const MAX_WAIT = 4000;
const POLL_FOR = 60000;

function setLive(live) {
  const was = document.body.dataset.live;
  document.body.dataset.live = live ? "yes" : "no";
  if (live && was === "no" && doc) {
    say("Back at the table.");
    // The focus put on the status line while the table was lost goes back to the hand.
    if (document.activeElement === $("status")) refocus();
  }
  if (!live && doc) {
    $("status").textContent = "Lost the table; reconnecting\u2026";
    $("status").classList.remove("your-turn");  // not in a turn's colour: nothing can be played
    document.title = "Mexican Train";  // nor marked as a turn in the tab's title
    if (was === "no") return;  // said once, not at every attempt to reconnect
    // Left nowhere (on the page's body), the focus goes to the words, which read them;
    // elsewhere it stays, and the words are said.
    const focused = document.activeElement;
    if (!focused || focused === document.body) $("status").focus();
    else say($("status").textContent);
  }
}

function showPresence(next) {
  if (!next.connected) return;
  const words = next.names.map((name, seat) =>
    `${name}: ${next.connected[seat] ? "here" : "away"}`);
  $("presence").textContent = words.join(" \u00b7 ");
}

// The coach's review of a round, once it is over: a person's page asks GET /api/review
// once a round (it may take a few seconds) and shows the biggest mistakes.
let reviewed = null;  // the round whose review is shown or asked for

async function showReview(next) {
  const box = $("review");
  if (next.view.current_player !== null) {  // a round under way: no review
    box.hidden = true;
    reviewed = null;
    $("review-ready").textContent = "";  // said again, then, for the next round's review
    return;
  }
  if (next.seat < 0 || reviewed === next.view.round_number) return;  // spectators get none
  const asked = reviewed = next.view.round_number;
  box.hidden = false;
  delete box.dataset.round;
  $("review-title").textContent = `Your round ${asked}, reviewed`;
  $("review-body").replaceChildren(element("p", "The coach is looking at your moves\u2026"));
  let answer;
  try {
    answer = await api("/api/review");
  } catch (error) {
    answer = {ok: false, data: {reason: "The server did not answer."}};
  }
  if (reviewed !== asked) return;  // the table moved on meanwhile
  if (!answer.ok) {
    $("review-body").replaceChildren(element("p", answer.data.reason || answer.data.error));
    $("review-ready").textContent = `No review of round ${asked}: the reason is below.`;
    return;
  }
  const review = answer.data;
  const parts = [element("p", review.heading)];
  if (review.mistakes.length > 0) {
    parts.push(element("p", `The biggest mistakes (${review.mistakes.length}):`));
    const list = element("ol");
    list.append(...review.mistakes.map((mistake) => {
      const item = element("li");
      item.append(element("strong", mistake.said), element("p", mistake.better));
      return item;
    }));
    parts.push(list);
  }
  parts.push(element("p", review.ending));
  $("review-body").replaceChildren(...parts);
  $("review-ready").textContent = `Your review of round ${review.round} is ready below.`;
  box.dataset.round = String(review.round);
}

// The turn timer (--turn-timer): a document says how many seconds the person to move had
// left when it was made; the page counts them down from when it arrived.
let timerEnds = null;  // performance.now() when the time runs out; null: no timer
let warned = null;     // the version of the document whose short time has been said
const SHORT_TIME = 10;  // seconds: the countdown turns red, and a screen reader is told

function showTimer(next) {
  const timed = next.seconds_left !== null && next.seconds_left !== undefined;
  timerEnds = timed ? performance.now() + next.seconds_left * 1000 : null;
  $("timer").hidden = !timed;
  tick();
}

function tick() {
  if (timerEnds === null || !doc) return;
  const left = Math.max(0, Math.ceil((timerEnds - performance.now()) / 1000));
  const who = doc.moves.length > 0 ? "You have" : `${doc.names[doc.view.current_player]} has`;
  const whom = doc.moves.length > 0 ? "you" : "them";
  $("timer").textContent = left > 0 ? `${who} ${left} s to move.` : `Time is up: a bot moves for ${whom}.`;
  $("timer").classList.toggle("short", left <= SHORT_TIME);
  $("timer").dataset.seconds = String(left);
  // Said once a turn, in a live region of its own: the countdown itself is not live.
  const mine = doc.moves.length > 0;
  if (mine && left > 0 && left <= SHORT_TIME && warned !== doc.version) {
    warned = doc.version;
    $("timer-warning").textContent = `Your time is short: ${left} s left to move.`;
  } else if (!mine && $("timer-warning").textContent) {
    $("timer-warning").textContent = "";
  }
}

setInterval(tick, 250);

function received(next) {
  setLive(true);  // "Back at the table" is said before what happened meanwhile
  show(next);
  showPresence(next);
  if (doc === next) showTimer(next);  // not an older document, which show() ignored
  showReview(doc);
}

async function again() {
  let answer;
  try {
    answer = await api("/api/again", {});
  } catch (error) {
    answer = {ok: false, data: {reason: "The server did not answer: try again."}};
  }
  if (answer.ok) {
    $("error").textContent = "";
    received(answer.data);
    refocus();  // the button is gone: the focus goes to the new hand
  } else if (answer.status === 410) {
    goneAnswer(answer);
  } else {
    // Once the game is over the controls are hidden: show them for the reason.
    $("controls").hidden = false;
    $("error").textContent = answer.data.reason || answer.data.error;
  }
}

function listen() {
  // Resolves when the socket closes: whether it delivered a document, and its close code.
  return new Promise((resolve) => {
    let delivered = false;
    let socket;
    try {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      socket = new WebSocket(`${scheme}//${location.host}/api/ws`);
    } catch (error) {
      resolve({delivered, code: 0, reason: ""});
      return;
    }
    socket.onopen = () => socket.send(JSON.stringify({token}));
    socket.onmessage = (event) => {
      delivered = true;
      received(JSON.parse(event.data));
    };
    socket.onclose = (event) => resolve({delivered, code: event.code, reason: event.reason});
  });
}

async function poll(ms) {
  // Long-polls for *ms* milliseconds, or until a request fails; returns whether one worked.
  const end = Date.now() + ms;
  let worked = false;
  while (Date.now() < end) {
    const answer = await api("/api/view?since=" + (doc ? doc.version : 0));
    if (answer.status === 401 || answer.status === 403) return refused(answer);
    if (answer.status === 410) return goneAnswer(answer);
    if (!answer.ok) break;
    worked = true;
    received(answer.data);
  }
  return worked;
}

async function follow() {
  let failures = 0;
  for (;;) {
    const closed = await listen();
    if (closed.code === 4401 || closed.code === 4403) {
      return refused({data: {error: "wrong token", reason: closed.reason}});
    }
    if (closed.code === 4410) return expired(closed.reason);
    if (closed.code === 4404) return closedTable(closed.reason);
    setLive(false);
    failures = closed.delivered ? 0 : failures + 1;
    if (failures >= 3) {
      try {
        if (await poll(POLL_FOR)) failures = 0;
      } catch (error) {
        setLive(false);
      }
      if (!$("nolink").hidden) return;
    }
    const wait = Math.min(MAX_WAIT, 250 * 2 ** failures);
    await sleep(wait / 2 + Math.random() * wait / 2);
  }
}

async function start() {
  if (!token) {
    if (await showLobby()) return;
    $("nolink").hidden = false;
    $("status").textContent = "Not seated.";
    return;
  }
  for (;;) {
    try {
      const answer = await refresh();
      if (answer.status === 401 || answer.status === 403) return refused(answer);
      if (answer.status === 410) return goneAnswer(answer);
      if (answer.ok) break;
    } catch (error) {
      $("status").textContent = "Cannot reach the table; retrying\u2026";
    }
    await sleep(1000);
  }
  follow();
}

// "Skip to your hand": the focus goes to the hand's Tab stop (the URL keeps its token).
$("skip").addEventListener("click", (event) => {
  event.preventDefault();
  const stop = $("hand").querySelector('.hand-tile[tabindex="0"]');
  if (stop) stop.focus();
  else refocus();
});

window.addEventListener("hashchange", () => location.reload());
$("again").addEventListener("click", again);
start();
