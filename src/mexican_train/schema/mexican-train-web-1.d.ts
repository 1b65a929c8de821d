/* Generated from the JSON Schema beside this file by types/generate.mjs
 * (json-schema-to-typescript): do not edit by hand; run 'npm run generate' in types/. */

/**
 * Documents of the web table's protocol (mexican-train serve): the answers of its HTTP API and WebSocket, and the requests it reads. A seat's view and its moves are the library's documents (mexican-train-2.schema.json beside this file). See docs/reference/web-protocol.rst.
 */
export type MexicanTrainWebDocument =
  SeatDocument | LobbyChoices | NewTable | Review | Refusal | MoveRequest | TableRequest | Hello;
/**
 * The seat's view, the library's document (mexican-train-2.schema.json); a spectator's has no hand.
 */
export type ViewDocument = {schema: "mexican-train/2"} & import("./mexican-train-2").View;
/**
 * A move the seat may make now, as the page shows it. Send it back as it is: its json or its notation.
 */
export type OfferedMove =
  | {
      /**
       * The move's notation: "12-5@M".
       */
      notation: string;
      json: MoveDocument;
      kind: "play";
      /**
       * The tile played: "12-5".
       */
      tile: string;
      /**
       * The train played on: its owner's seat, or -1 for the Mexican train.
       */
      train: number;
      /**
       * "Play 12-5 on the Mexican train".
       */
      words: string;
    }
  | {
      notation: string;
      json: MoveDocument;
      kind: "draw" | "pass" | "call" | "next-round";
      tile: null;
      train: null;
      words: string;
    };
/**
 * The library's document of a move (mexican-train-2.schema.json).
 */
export type MoveDocument = {schema: "mexican-train/2"} & import("./mexican-train-2").Move;
/**
 * A seat, 0 .. players - 1.
 */
export type Seat = number;

/**
 * The seat's document: what the token's seat may know now (S5). GET /api/view, POST /api/move, POST /api/again and the WebSocket answer it.
 */
export interface SeatDocument {
  /**
   * The seat, from 0; -1 for a spectator.
   */
  seat: number;
  /**
   * How many moves the table has applied: it only grows. An answer with a lower one is older than what you show.
   */
  version: number;
  view: ViewDocument;
  /**
   * The moves the seat may make now, empty when it is not its turn.
   */
  moves: OfferedMove[];
  /**
   * Each seat's label, "You" for the seat itself.
   */
  names: string[];
  /**
   * The seats bots play, in order.
   */
  bots: Seat[];
  /**
   * For each seat, whether it is taken now: a bot's always, a person's while a page of theirs is connected.
   */
  connected: boolean[];
  /**
   * With a turn timer, the seconds the person to move had left when the document was made; null without a timer, between rounds, and while a bot moves.
   */
  seconds_left: null | number;
  /**
   * The trains whose open double the player to move must cover before playing anywhere else (D2, D3), as the rules' open-double rule says; empty when none binds, between rounds, and on a first turn (P4).
   */
  must_cover: number[];
  /**
   * The trains whose open double nothing can cover any more: every other tile of its suit is on the table (D4).
   */
  dead_doubles: number[];
  /**
   * The trains whose open double the rules' open-double rule closes one at a time, in that order (D3; the most recent first under V3's reverse order), dead doubles it skips left out (D4); empty when it binds several at once (any one of them, V3) or none.
   */
  cover_order: number[];
  /**
   * For each seat, whether the Mexican train is open to it now, as the rules' Mexican-train rule says (V2); an open double that binds (D2) may be covered there whatever this says.
   */
  mexican_open: boolean[];
  /**
   * Whose turn it is, in words.
   */
  status: string;
  /**
   * Every line of the round's log in public words, as this seat reads them, oldest first.
   */
  log: string[];
  scores: {
    /**
     * Each round's points, by seat.
     */
    rounds: number[][];
    /**
     * The total points, by seat.
     */
    totals: number[];
  };
  /**
   * The winners once the game is over, else empty.
   */
  winners: Seat[];
}
/**
 * GET /api/lobby: what the lobby offers.
 */
export interface LobbyChoices {
  /**
   * The names of the rules and house rules a table may be asked for.
   */
  rules: string[];
  /**
   * The bots' levels.
   */
  levels: ("easy" | "medium" | "hard")[];
  /**
   * The fewest and the most players of a table.
   *
   * @minItems 2
   * @maxItems 2
   */
  players: [number, number];
}
/**
 * POST /api/tables: the table made, with its links (a token in each fragment).
 */
export interface NewTable {
  /**
   * The table's name, which starts its tokens.
   */
  table: string;
  /**
   * Each person's seat ("0", "1", ...) and its link, "/#token=...".
   */
  seats: {
    [k: string]: string | undefined;
  };
  /**
   * The spectators' link.
   */
  spectators: string;
}
/**
 * GET /api/review: the coach's review of the seat's decisions in the last round that is over.
 */
export interface Review {
  /**
   * The round reviewed.
   */
  round: number;
  heading: string;
  /**
   * The biggest mistakes first.
   */
  mistakes: {
    /**
     * The decision, and what it cost.
     */
    said: string;
    /**
     * The better move, and why.
     */
    better: string;
  }[];
  ending: string;
}
/**
 * A refusal, with the HTTP status: what went wrong in a few words, and why.
 */
export interface Refusal {
  error: string;
  reason: string;
}
/**
 * The body of POST /api/move.
 */
export interface MoveRequest {
  /**
   * One of the document's moves: its json, or its notation.
   */
  move: MoveDocument | string;
  /**
   * The version the seat saw: a move for a table that has moved on since is refused.
   */
  version?: null | number;
}
/**
 * The body of POST /api/tables: the table the lobby asks for.
 */
export interface TableRequest {
  /**
   * The rules, by name (standard).
   */
  rules?: string;
  /**
   * House rules, by name, combined with the rules.
   *
   * @maxItems 8
   */
  house?:
    | []
    | [string]
    | [string, string]
    | [string, string, string]
    | [string, string, string, string]
    | [string, string, string, string, string]
    | [string, string, string, string, string, string]
    | [string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string];
  /**
   * 4 unless asked.
   */
  players?: number;
  /**
   * How many of the seats (the first ones) are people's, 1 unless asked; bots play the others.
   */
  people?: number;
  /**
   * The bots' level (medium).
   */
  level?: "easy" | "medium" | "hard";
}
/**
 * The first message on the WebSocket /api/ws.
 */
export interface Hello {
  token: string;
}
