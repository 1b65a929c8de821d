// The lobby: the page without a seat's token makes a table (POST /api/tables) and lists
// a link for each person's seat and one for spectators.  No build step.
"use strict";

function lobbyElement(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

// A link says whose it is ("Seat 0's link"), so that a screen reader does not read its
// secret token aloud; its URL stays in view beside it for the eye, to be read and copied
// (hidden from a screen reader, which copies the link itself).
function lobbyLink(whose, fragment) {
  const url = location.origin + fragment;
  const item = lobbyElement("li");
  const shown = lobbyElement("span", ": ", {"aria-hidden": "true"});
  shown.append(lobbyElement("code", url));
  item.append(lobbyElement("a", `${whose} link`, {href: url, target: "_blank", rel: "noopener"}), shown);
  return item;
}

async function showLobby() {
  // Returns whether this server has a lobby (it shows it then).
  let answer;
  try {
    answer = await fetch("/api/lobby", {cache: "no-store"});
  } catch (error) {
    return false;
  }
  if (!answer.ok) return false;
  const choices = await answer.json();
  const section = document.getElementById("lobby");
  const rules = document.getElementById("lobby-rules");
  rules.replaceChildren(...choices.rules.map((name) => lobbyElement("option", name, {value: name})));
  const level = document.getElementById("lobby-level");
  level.replaceChildren(...choices.levels.map((name) => lobbyElement("option", name, {value: name})));
  level.value = "medium";
  section.hidden = false;
  document.getElementById("status").textContent = "Make a table, then share its links.";
  document.getElementById("lobby-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const house = document.getElementById("lobby-house").value.split(/[\s,]+/).filter(Boolean);
    const request = {
      rules: rules.value,
      house,
      players: Number(document.getElementById("lobby-players").value),
      people: Number(document.getElementById("lobby-people").value),
      level: level.value,
    };
    const error = document.getElementById("lobby-error");
    let made;
    let data;
    try {
      made = await fetch("/api/tables", {
        method: "POST",
        cache: "no-store",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify(request),
      });
      data = await made.json();
    } catch (failure) {
      error.textContent = "The server did not answer: no table was made. Try again.";
      return;
    }
    if (!made.ok) {
      error.textContent = data.reason || data.error;
      return;
    }
    error.textContent = "";
    const links = Object.entries(data.seats).map(([seat, fragment]) =>
      lobbyLink(`Seat ${seat}'s`, fragment));
    links.push(lobbyLink("Spectators'", data.spectators));
    document.getElementById("lobby-links").replaceChildren(...links);
    document.body.dataset.lobby = data.table;
    const seats = links.length - 1;
    // Shown in the status line, and said (table.js's say()): the links below are new.
    const whose = seats === 1 ? "its person" : `each of its ${seats} people`;
    const words = `The table is made: below, a link for ${whose} and one for spectators.`;
    document.getElementById("status").textContent = words;
    say(words);
  });
  return true;
}
