"""Train a small numpy policy on many tables at once, then measure how often it wins.

The policy is linear and softmax over the legal actions (``mexican_train.rl``'s masks):
each action's logit is the observation (with the information state: what the other
seat showed it lacks and has played this round) times the action's weights, plus a few
features of the action itself (the pips of its tile, a double, which train) times
weights shared by all actions.  It learns by REINFORCE with a linear value baseline, each
action credited with the reward of the round it was played in (rounds are scored on their own,
E3).  The opponents are library bots, played inside ``vector_env``.  Then the trained
policy, its most likely legal action each turn, plays fresh games against
`RandomPlayer`, `GreedyPlayer` and `PlannerPlayer`; the win rates come with 95%
confidence intervals.

    python examples/train_agent.py                  # a few seconds: a smoke run
    python examples/train_agent.py --seconds 240 --games 1000 --save policy.npz

Needs the ``rl`` extra (numpy, gymnasium, pettingzoo).
"""

from __future__ import annotations

import argparse
import math
import sys
import time

try:
    import numpy as np
except ImportError:
    sys.exit("train_agent.py needs the rl extra: pip install 'mexican-train[rl]'")

from mexican_train import MexicanTrainError
from mexican_train.rl import ActionCodec, vector_env


def action_features(codec: ActionCodec) -> np.ndarray:
    """Per action: its tile's pips / the most, a double, on the own, Mexican or another train."""
    features = np.zeros((codec.size, 5), dtype=np.float32)
    for index in range(codec.size):
        move = codec.decode(index, seat=0)
        tile = getattr(move, "tile", None)
        if tile is not None:
            slot = index % (codec.players + 1)
            features[index, 0] = (tile.high + tile.low) / (2 * codec.max_pip)
            features[index, 1] = tile.high == tile.low
            features[index, 2 + min(2, 0 if slot == 0 else 1 if slot == codec.players else 2)] = 1
    return features


class Policy:
    """Logits ``observation @ weights + actions @ shared`` over the actions; illegal: none."""

    def __init__(self, features: int, actions: np.ndarray) -> None:
        self.weights = np.zeros((features, len(actions)), dtype=np.float32)
        self.actions = actions
        self.shared = np.zeros(actions.shape[1], dtype=np.float32)
        self.value = np.zeros(features, dtype=np.float32)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        return observation @ self.weights + self.actions @ self.shared

    def odds(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask == 1, self.logits(observation), -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        return odds / odds.sum(axis=1, keepdims=True)

    def sample(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator):
        odds = self.odds(observation, mask)
        cumulative = odds.cumsum(axis=1)
        draws = rng.random((len(odds), 1)) * cumulative[:, -1:]
        return (cumulative < draws).sum(axis=1).clip(0, odds.shape[1] - 1), odds

    def best(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.where(mask == 1, self.logits(observation), -np.inf).argmax(axis=1)


def round_returns(rewards: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per step and table, the reward of the round the step was in, and whether it is known.

    *rewards* and *ends* are (steps, tables); *ends* says where a round ended
    (``infos["round_over"]``: a reward does not tell, since a round whose seats' points
    tie rewards 0).  Steps of a round not over by the last step are not known.
    """
    returns = np.zeros_like(rewards)
    known = np.zeros(rewards.shape, dtype=bool)
    following = np.zeros(rewards.shape[1])
    ahead = np.zeros(rewards.shape[1], dtype=bool)
    for step in range(len(rewards) - 1, -1, -1):
        over = ends[step]
        following = np.where(over, rewards[step], following)
        ahead = ahead | over
        returns[step], known[step] = following, ahead
    return returns, known


def train(
    rules: str,
    seconds: float,
    tables: int,
    opponent: str,
    seed: int,
    rate: float = 0.01,
) -> tuple[Policy, int]:
    envs = vector_env(
        tables, players=2, rules=rules, opponents=opponent, seed=seed, information_state=True
    )
    rng = np.random.default_rng(seed)
    observation, _ = envs.reset()
    features = observation["observation"].shape[1]
    policy = Policy(features, action_features(envs.actions))
    horizon, steps, scale = 32, 0, 1.0
    deadline = time.process_time() + seconds
    while time.process_time() < deadline:
        seen, chosen, odds_seen, rewards, ends = [], [], [], [], []
        for _ in range(horizon):
            actions, odds = policy.sample(
                observation["observation"], observation["action_mask"], rng
            )
            seen.append(observation["observation"])
            chosen.append(actions)
            odds_seen.append(odds)
            observation, reward, _, _, infos = envs.step(actions)
            rewards.append(reward)
            ends.append(infos["round_over"])
        steps += horizon * tables
        returns, known = round_returns(np.array(rewards), np.array(ends))
        x = np.concatenate(seen)[known.reshape(-1)]
        odds = np.concatenate(odds_seen)[known.reshape(-1)]
        actions = np.concatenate(chosen)[known.reshape(-1)]
        target = returns.reshape(-1)[known.reshape(-1)]
        if not len(x):
            continue
        scale = 0.99 * scale + 0.01 * float(target.std() + 1e-6)
        advantage = (target - x @ policy.value) / scale
        gradient = -odds * advantage[:, None]
        gradient[np.arange(len(actions)), actions] += advantage
        policy.weights += rate * (x.T @ gradient) / len(x)
        policy.shared += rate * (gradient @ policy.actions).sum(axis=0) / len(x)
        policy.value += rate * scale * (x.T @ advantage) / len(x)
    return policy, steps


def evaluate(
    policy: Policy, rules: str, opponent: str, games: int, seed: int
) -> tuple[float, float]:
    """Return the policy's share of won games against *opponent*, and its 95% half-width."""
    tables = min(games, 64)
    envs = vector_env(
        tables, players=2, rules=rules, opponents=opponent, seed=seed, information_state=True
    )
    observation, _ = envs.reset()
    wins, played = 0.0, 0
    while played < games:
        actions = policy.best(observation["observation"], observation["action_mask"])
        observation, _, terminated, _, infos = envs.step(actions)
        for table in np.flatnonzero(terminated):
            if played < games:
                winners = infos["final_info"]["winners"][table]
                wins += 1.0 / len(winners) if 0 in winners else 0.0  # a shared win: a share
                played += 1
    share = wins / played
    return share, 1.96 * math.sqrt(share * (1 - share) / played)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="short-game", help="a variant's name")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds of training")
    parser.add_argument("--tables", type=int, default=64, help="tables stepped together")
    parser.add_argument("--opponent", default="greedy", help="the bot trained against")
    parser.add_argument("--games", type=int, default=10, help="games per evaluation")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", help="write the trained weights to this .npz file")
    args = parser.parse_args(argv)
    for option, value in (("--seconds", args.seconds), ("--tables", args.tables),
                          ("--games", args.games)):  # fmt: skip
        if not value > 0:
            parser.error(f"{option} is more than 0, not {value:g}")
    try:  # an unknown variant or opponent is refused as the environment is made
        policy, steps = train(args.rules, args.seconds, args.tables, args.opponent, args.seed)
    except MexicanTrainError as error:
        parser.error(str(error))
    print(
        f"{args.rules}, 2 players: trained {args.seconds:g} CPU s against {args.opponent}, "
        f"{steps:,} agent steps"
    )
    bots = (
        ("random-player", "RandomPlayer"),
        ("greedy", "GreedyPlayer"),
        ("planner", "PlannerPlayer"),
    )
    # A seed s seeds table i with s + i: the evaluation's tables start after the training's,
    # so that it plays games the policy was not trained on.
    fresh = args.seed + args.tables
    for opponent, name in bots:
        share, half = evaluate(policy, args.rules, opponent, args.games, seed=fresh)
        print(f"wins against {name}: {share:.1%} ± {half:.1%} of {args.games} games (95%)")
    if args.save:
        np.savez(args.save, weights=policy.weights, shared=policy.shared, value=policy.value)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
