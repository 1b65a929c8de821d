/* Generated from the JSON Schema beside this file by types/generate.mjs
 * (json-schema-to-typescript): do not edit by hand; run 'npm run generate' in types/. */

/**
 * Documents of the mexican-train library: states, player views, moves, game records and events. Every document names this schema in "schema" and its kind in "type". The library's readers check more than this schema can say (every tile once, trains are chains, counts agree with the rules); see docs/reference/json.rst.
 */
export type MexicanTrainDocument = {
  schema: "mexican-train/2";
} & (State | View | Record | Move | Event);
/**
 * A tile, higher or lower end first: "12-5".
 *
 * The schema's definition "tile" (#/$defs/tile), mexican-train/2.
 */
export type Tile = string;
/**
 * The schema's definition "tiles" (#/$defs/tiles), mexican-train/2.
 */
export type Tiles = Tile[];
/**
 * A seat, 0 .. players - 1.
 *
 * The schema's definition "seat" (#/$defs/seat), mexican-train/2.
 */
export type Seat = number;
/**
 * A train: its owner's seat, or -1 for the Mexican train.
 *
 * The schema's definition "trainId" (#/$defs/trainId), mexican-train/2.
 */
export type TrainId = number;
/**
 * A whole number of at most 64 bits, either sign (S6). new_game's random seeds are below 2**53; a larger seed a program chose is one a JavaScript number does not hold exactly: JSON.parse rounds it, and a document written back holds another game. Keep such a seed as text, or parse it as a BigInt.
 *
 * The schema's definition "seed" (#/$defs/seed), mexican-train/2.
 */
export type Seed = number;
/**
 * In the order played, the first joined to the engine.
 */
export type Tiles1 = Tile[];
/**
 * A deal table (S1): "Table A", "Table B", or every row.
 *
 * The schema's definition "dealTable" (#/$defs/dealTable), mexican-train/2.
 */
export type DealTable =
  | ("Table A" | "Table B")
  | {
      name: string;
      hand_sizes: [players: number, max_pip: number, tiles_each: number][];
      default_sets: [players: number, max_pip: number][];
    };
/**
 * When the Mexican train is open (V2): a public class and its fields.
 *
 * The schema's definition "mexicanTrainRule" (#/$defs/mexicanTrainRule), mexican-train/2.
 */
export type MexicanTrainRule =
  | {
      type: "MexicanFromFirstTurn";
    }
  | {
      type: "MexicanFromSecondTurn";
    }
  | {
      type: "NoMexicanTrain";
    }
  | {
      type: "MexicanAfterOwnTrain";
    }
  | {
      type: "MexicanAfterAllTrains";
    };
/**
 * How open doubles bind and close (D2-D4, V3, V4): a public class and its fields.
 *
 * The schema's definition "openDoubleRule" (#/$defs/openDoubleRule), mexican-train/2.
 */
export type OpenDoubleRule =
  | {
      type: "CloseInOrder";
      reverse?: boolean;
      release_dead?: boolean;
    }
  | {
      type: "StrictCloseInOrder";
      reverse?: boolean;
      release_dead?: boolean;
    }
  | {
      type: "CoverOwnDouble";
      reverse?: boolean;
      release_dead?: boolean;
    }
  | {
      type: "CloseAnyOrder";
      release_dead?: boolean;
    }
  | {
      type: "NeverBind";
    };
/**
 * The undrawn tiles in draw order (secret).
 */
export type Tiles2 = Tile[];
/**
 * A move, by its type.
 *
 * The schema's definition "move" (#/$defs/move), mexican-train/2.
 */
export type Move =
  | {
      type: "play";
      tile: Tile;
      train: TrainId;
    }
  | {
      type: "draw";
    }
  | {
      type: "pass";
    }
  | {
      type: "next-round";
    }
  | {
      type: "call-last-tile";
    };
/**
 * A move inside a record (no "schema" field).
 *
 * The schema's definition "recordMove" (#/$defs/recordMove), mexican-train/2.
 */
export type RecordMove =
  | {
      type: "play";
      tile: Tile;
      train: TrainId;
    }
  | {
      type: "draw";
    }
  | {
      type: "pass";
    }
  | {
      type: "next-round";
    }
  | {
      type: "call-last-tile";
    };
/**
 * An event, by its type.
 *
 * The schema's definition "event" (#/$defs/event), mexican-train/2.
 */
export type Event =
  | {
      type: "tile-played";
      seat: Seat;
      tile: Tile;
      train: TrainId;
      open_end: number;
    }
  | {
      type: "tile-drawn";
      seat: Seat;
      tile: null | Tile;
    }
  | {
      type: "passed";
      seat: Seat;
    }
  | {
      type: "one-tile-left";
      seat: Seat;
    }
  | {
      type: "last-tile-called";
      seat: Seat;
    }
  | {
      type: "marker-placed";
      train: Seat;
    }
  | {
      type: "marker-removed";
      train: Seat;
    }
  | {
      type: "double-opened";
      train: TrainId;
      tile: Tile;
    }
  | {
      type: "double-closed";
      train: TrainId;
      tile: Tile;
    }
  | {
      type: "turn-started";
      seat: Seat;
    }
  | {
      type: "round-ended";
      round_number: number;
      round_scores: number[];
      scores: number[];
    }
  | {
      type: "round-started";
      round_number: number;
      engine: Tile;
      first_player: Seat;
      hand_sizes: number[];
      boneyard_size: number;
    }
  | {
      type: "game-over";
      scores: number[];
      /**
       * @minItems 1
       */
      winners: [Seat, ...Seat[]];
    };

/**
 * A train (P2): its tiles, the number it ends in, its marker (P6), and whether its owner has played on it this round (V2).
 *
 * The schema's definition "train" (#/$defs/train), mexican-train/2.
 */
export interface Train {
  tiles: Tiles1;
  open_end: number;
  marked?: boolean;
  /**
   * Whether the train's owner has played a tile on it this round; tiles other players laid on it while it was marked do not count (V2). False on the Mexican train. When missing (documents written before this field): on a personal train, whether it has tiles, which an unmarked one must agree with (P6) unless Rules.marker_lifts_anywhere; false on the Mexican train.
   */
  owner_played?: boolean;
}
/**
 * The special first turn (P4, V1).
 *
 * The schema's definition "firstTurn" (#/$defs/firstTurn), mexican-train/2.
 */
export interface FirstTurn {
  chain?: boolean;
  may_draw?: boolean;
}
/**
 * Every rule point (the rule axes V1-V10: https://mexican-train.readthedocs.io/en/latest/explanation/rulebooks.html); the fields of Rules.
 *
 * The schema's definition "rules" (#/$defs/rules), mexican-train/2.
 */
export interface Rules {
  deal_table: DealTable;
  /**
   * S3 or S4 (V5).
   */
  engine_placement: "holder" | "set-aside";
  first_turn: null | FirstTurn;
  mexican_train: MexicanTrainRule;
  open_doubles: OpenDoubleRule;
  max_pip?: null | number;
  hand_size?: null | number;
  must_play?: boolean;
  double_blank_score?: number;
  rounds?: null | number;
  ascending?: boolean;
  open_hands?: boolean;
  draw_until_playable?: boolean;
  last_tile_penalty?: number;
  tie_break?: boolean;
  highest_engine?: null | number;
  marker_lifts_anywhere?: boolean;
}
/**
 * A GameState: everything about a game at one moment.
 *
 * The schema's definition "state" (#/$defs/state), mexican-train/2.
 */
export interface State {
  type: "state";
  rules: Rules;
  players: number;
  max_pip: number;
  hand_size: number;
  seed: Seed;
  round_number: number;
  engine: Tile;
  first_player: Seat;
  /**
   * Every seat's hand (secret).
   */
  hands: Tiles[];
  boneyard: Tiles2;
  /**
   * The personal trains by seat, then the Mexican train.
   */
  trains: Train[];
  current_player: null | Seat;
  had_first_turn: boolean[];
  turn_tiles: number;
  has_drawn: boolean;
  turn_doubles: TrainId[];
  open_doubles: TrainId[];
  idle_turns: number;
  scores: number[];
  round_scores: number[][];
  is_over: boolean;
  last_tile_called?: boolean;
}
/**
 * A PlayerView: what one seat (or a spectator) may know.
 *
 * The schema's definition "view" (#/$defs/view), mexican-train/2.
 */
export interface View {
  type: "view";
  rules: Rules;
  players: number;
  max_pip: number;
  hand_size: number;
  round_number: number;
  engine: Tile;
  first_player: Seat;
  seat: null | Seat;
  hand: Tiles;
  hand_sizes: number[];
  boneyard_size: number;
  /**
   * The personal trains by seat, then the Mexican train.
   */
  trains: Train[];
  current_player: null | Seat;
  had_first_turn: boolean[];
  turn_tiles: number;
  has_drawn: boolean;
  turn_doubles: TrainId[];
  open_doubles: TrainId[];
  idle_turns: number;
  scores: number[];
  round_scores: number[][];
  is_over: boolean;
  open_hands?: null | Tiles[];
  last_tile_called?: boolean;
}
/**
 * A GameRecord: rules, seed (or the first deal) and every move.
 *
 * The schema's definition "record" (#/$defs/record), mexican-train/2.
 */
export interface Record {
  type: "record";
  players: number;
  rules: Rules;
  seed: Seed;
  deal?: null | {
    hands: Tiles[];
    boneyard: Tiles;
  };
  moves?: RecordMove[];
}
