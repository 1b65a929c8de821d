// The web table's board and tiles, drawn from the seat's view: plain JavaScript, no build step.
//
// Each train is an item [data-train="n"] of a list (the Mexican train is -1) with its
// tiles as [data-tile="a-b"], inside a button (.train-play) when it takes the chosen
// tile: its last tiles and open end are drawn large, the tiles before them collapse
// behind a "+N tiles" button.  Pips are dots: their count is the information,
// and their colour, from the Okabe-Ito palette, only helps the eye.
"use strict";

const BOARD_MEXICAN = -1;
// Okabe-Ito hues, the lighter ones (orange, sky blue, yellow) darkened so that every
// pip keeps a contrast of 3:1 at least against the ivory tile face (--face in table.css).
const PIP_COLOURS = ["#0072b2", "#d55e00", "#007a5a", "#a8527f", "#9e6d00", "#1b1b1b"];
const SVG_NS = "http://www.w3.org/2000/svg";

function make(tag, text, attributes = {}, ...children) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

// Where the dots of *count* pips go, in a 30 x 30 square: the usual faces up to 9, then
// two full columns and a middle one (10-12 on four rows, 13-18 on six).
function pipPlaces(count) {
  const grid = {
    0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
    4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
    6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]],
    7: [[0, 0], [0, 1], [0, 2], [1, 1], [2, 0], [2, 1], [2, 2]],
    8: [[0, 0], [0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1], [2, 2]],
    9: [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2]],
  };
  if (count in grid) return grid[count].map(([c, r]) => [6 + 9 * c, 6 + 9 * r]);
  const rows = count <= 12 ? 4 : 6;
  const middle = count - 2 * rows;
  const places = [];
  for (let r = 0; r < rows; r++) {
    const y = 4 + (22 * r) / (rows - 1);
    places.push([6, y], [24, y]);
  }
  for (let m = 0; m < middle; m++) places.push([15, 30 * (m + 0.5) / middle]);
  return places;
}

function pipColour(count) {
  return PIP_COLOURS[(count - 1) % PIP_COLOURS.length];
}

// One half of a tile: *count* dots.
function half(count) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 30 30");
  svg.setAttribute("class", "half");
  svg.setAttribute("aria-hidden", "true");
  svg.dataset.pips = String(count);
  const radius = count <= 9 ? 3.4 : count <= 12 ? 2.9 : 1.9;
  for (const [x, y] of pipPlaces(count)) {
    const dot = document.createElementNS(SVG_NS, "circle");
    dot.setAttribute("cx", String(x));
    dot.setAttribute("cy", String(y));
    dot.setAttribute("r", String(radius));
    dot.setAttribute("fill", pipColour(count));
    svg.append(dot);
  }
  return svg;
}

// The two halves of a tile, *near* first; doubles and hand tiles stand upright.
function tileHalves(node, near, far) {
  node.append(half(near), half(far));
  return node;
}

// A board tile: its data-tile is the tile as the view writes it, its halves as it lies.
function boardTile(tile, near, far, size) {
  const upright = near === far;
  const node = make("span", null, {
    "class": `tile ${size}` + (upright ? " upright" : ""),
    "data-tile": tile,
    "role": "img",
    "aria-label": `${near}-${far}`,
  });
  return tileHalves(node, near, far);
}

// The tiles of a train as they lie from the engine (P2): each joins at the open end.
function laid(tiles, engine) {
  let end = engine;
  return tiles.map((tile) => {
    const [a, b] = tile.split("-").map(Number);
    const near = a === end ? a : b === end ? b : a;  // not a chain: as written
    const far = near === a ? b : a;
    end = far;
    return {tile, near, far};
  });
}

// A train's name, and the train inside a sentence: "the Mexican train", "your train",
// "Ann's train".  *board* holds the reader's seat and the seats' names.
function ownerWords(train, board) {
  if (train === BOARD_MEXICAN) return "Mexican train";
  if (train === board.seat) return "Your train";
  return board.names[train] + "'s train";
}

function ownerPhrase(train, board) {
  if (train === BOARD_MEXICAN) return "the Mexican train";
  if (train === board.seat) return "your train";
  return ownerWords(train, board);
}

// An icon for the eye alone: a screen reader says the words beside it.
function icon(symbol) {
  return make("span", symbol, {"class": "icon", "aria-hidden": "true"});
}

// What a node says to a screen reader: its text without the parts hidden from it.
function spoken(node) {
  const copy = node.cloneNode(true);
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return copy.textContent.trim();
}

// What an open double asks, as the server says the rules decide (D2-D4, V3, V4): the
// doubles the rule closes one at a time are numbered in that order (cover_order), those
// it binds together or never are not; a dead double it skips is called dead.
function openDouble(train, board) {
  const order = board.cover_order;
  const number = order.length > 1 ? order.indexOf(train) + 1 : 0;
  const dead = board.dead_doubles.includes(train);
  const binds = board.must_cover.includes(train);
  const kind = dead && !binds && !order.includes(train) ? "Dead double" : "Open double";
  const name = kind + (number > 0 ? ` #${number}` : "");
  if (board.view.current_player === null) return name;  // between rounds: nothing to cover
  if (binds && dead) return name + " (V4): nothing can cover it, yet it binds";
  if (binds && board.must_cover.length > 1) return name + " (V3): cover it or another open double first";
  if (binds) return name + (number > 0 ? " (D3)" : " (D2)") + ": cover it first";
  if (number > 1) return `${name} (D3): covered after #${number - 1}`;
  if (dead) return name + ": nothing can cover it, it binds nobody (D4)";
  if (number > 0) return name + " (D3)";
  return name + ": it binds nobody under these rules (V3)";
}

// Whom the Mexican train is open to now, as the server says the rules decide (V2): the
// reader, or for a spectator every seat.
function mexicanBadge(board) {
  const open = board.mexican_open;
  if (board.seat >= 0) {  // a spectator's seat is -1
    return open[board.seat] ? ["open", null, "Open to you (V2)"] : ["closed", null, "Not open to you (V2)"];
  }
  const seats = [...open.keys()].filter((seat) => open[seat]);
  if (seats.length === 0) return ["closed", null, "Open to nobody (V2)"];
  if (seats.length === open.length) return ["open", null, "Open to everyone (V2)"];
  return ["open", null, "Open to " + seats.map((seat) => board.names[seat]).join(", ") + " (V2)"];
}

// What a train's state is, in words (an icon helps the eye, the words carry the meaning).
function trainBadges(train, data, board) {
  const view = board.view;
  const badges = [];
  if (view.open_doubles.includes(train)) {
    const words = openDouble(train, board);
    // A dead double that binds nobody is drawn muted, as the SVG's grey flag (D4).
    badges.push([words.startsWith("Dead") ? "double dead" : "double", "\u25C6", words]);
  }
  if (view.turn_doubles.includes(train)) {
    badges.push(["double follow", "\u25C6", "Double to follow (D1): its player plays again"]);
  }
  if (train === BOARD_MEXICAN) badges.push(mexicanBadge(board));
  else if (data.marked) badges.push(["marker", "\u2691", "Marker: open to everyone (P6)"]);
  else badges.push(["closed", null, "Closed: its owner's only (P3)"]);
  if (train !== BOARD_MEXICAN && view.current_player === train) {
    badges.push(["turn", "\u25B6", "To play"]);
  }
  return badges.map(([kind, symbol, words]) =>
    make("span", null, {"class": `badge ${kind}`}, ...(symbol ? [icon(symbol + " ")] : []), words));
}

// A seat's hand size and score, a dot between them for the eye and a comma for the ear.
function trainFacts(train, board) {
  if (train === BOARD_MEXICAN) return [];
  const view = board.view;
  const tiles = view.hand_sizes[train];
  return [`${tiles} tile${tiles === 1 ? "" : "s"} in hand`, icon(" \u00B7 "),
          make("span", ", ", {"class": "visually-hidden"}), `${view.scores[train]} points`];
}

// One train: its head (owner, state, hand size, score), then its line of tiles.
function drawTrain(train, board, options) {
  const view = board.view;
  const data = view.trains[train === BOARD_MEXICAN ? view.trains.length - 1 : train];
  const engine = Number(view.engine.split("-")[0]);
  const tiles = laid(data.tiles, engine);
  const open = options.expanded.has(train);
  const hidden = tiles.length > options.shown + 1 ? tiles.length - options.shown : 0;
  const target = options.targets.includes(train);
  const classes = ["train"];
  if (train !== BOARD_MEXICAN && train === board.seat) classes.push("mine");  // a spectator's seat is -1
  if (target) classes.push("target");
  if (data.marked) classes.push("marked");
  if (view.open_doubles.includes(train)) classes.push("open-double");
  const name = ownerWords(train, board);
  const node = make("li", null, {"class": classes.join(" "), "data-train": String(train)});

  const head = make("div", null, {"class": "train-head"},
    make("span", name, {"class": "owner"}),
    make("span", null, {"class": "facts"}, ...trainFacts(train, board)),
    ...trainBadges(train, data, board));
  const line = make("div", null, {"class": "train-line"});
  if (hidden > 0 && target) {
    // A train that is a button holds no other control: the count alone, unfolded or not.
    line.append(make("span", open ? "" : `+${hidden} tiles`, {"class": "more"}));
  } else if (hidden > 0) {
    const more = make("button", open ? "\u2212 Fold" : `+${hidden} tiles`, {
      "class": "more",
      "aria-expanded": String(open),
      "aria-label": open ? `Fold the first ${hidden} tiles of ${name}` : `Show the first ${hidden} tiles of ${name}`,
    });
    more.addEventListener("click", (event) => {
      event.stopPropagation();  // unfolding a train does not play on it
      options.onFold(train);
    });
    line.append(more);
  }
  if (tiles.length === 0) line.append(make("span", "No tile yet", {"class": "empty"}));
  tiles.forEach(({tile, near, far}, index) => {
    if (index < hidden && !open) return;
    line.append(boardTile(tile, near, far, index < tiles.length - options.shown ? "small" : "large"));
  });
  line.append(make("span", null, {"class": "open-end", "data-open-end": String(data.open_end),
                                   "role": "img", "aria-label": `open end ${data.open_end}`},
                   half(data.open_end), make("span", String(data.open_end), {"class": "end-number"})));
  if (target) {
    line.append(make("span", null, {"class": "play-here"}, icon("\u25C0 "), `${options.selected} goes here`));
  }
  const said = [name, ...[...head.querySelectorAll(".facts, .badge")].map(spoken)]
    .filter(Boolean).join(", ");
  const ends = `${data.tiles.length} tile${data.tiles.length === 1 ? "" : "s"}, open end ${data.open_end}`;
  if (target) {
    const phrase = ownerPhrase(train, board);
    // A train the chosen tile may go on holds a button (P3), and stays an item of the
    // board's list; a click anywhere on its row plays there.
    const play = make("div", null, {
      "class": "train-play",
      "role": "button",
      "tabindex": "0",
      "aria-label": `Play ${options.selected} on ${phrase} (${ends}; ${said})`,
    }, head, line);
    play.addEventListener("keydown", (event) => {
      if (event.target === play && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        options.onPlay(train);
      }
    });
    node.addEventListener("click", () => options.onPlay(train));
    node.append(play);
  } else {
    node.setAttribute("aria-label", `${said}; ${ends}`);
    node.append(head, line);
  }
  return node;
}

// The board: the engine and the round, then one train per seat and the Mexican train.
// *options*: selected (the chosen tile or null), targets (the trains it may go on),
// shown (how many tiles at a train's end are always shown, large), expanded (a Set of
// unfolded trains), onPlay(train), onFold(train).
function drawBoard(board, options) {
  const view = board.view;
  const engine = Number(view.engine.split("-")[0]);
  const head = make("div", null, {"class": "board-head"},
    make("span", null, {"class": "engine", "role": "img", "aria-label": `Engine ${view.engine}`},
         boardTile(view.engine, engine, engine, "large"), make("span", "Engine", {"class": "caption"})),
    make("p", null, {"class": "round"},
         `Round ${view.round_number} of ${view.rules.rounds || view.max_pip + 1}`, icon(" \u00B7 "),
         make("span", ", ", {"class": "visually-hidden"}),
         `boneyard: ${view.boneyard_size} tile${view.boneyard_size === 1 ? "" : "s"}`));
  const personal = [...board.names.keys()];
  const ids = view.trains.length > view.players ? [...personal, BOARD_MEXICAN] : personal;
  const list = make("ol", null, {"class": "trains", "aria-label": "Trains"},
                    ...ids.map((train) => drawTrain(train, board, options)));
  return [head, list];
}
