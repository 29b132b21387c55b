#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Record step-by-step traces of a MinAtar-style Python environment.

The output is the golden trace format of tests/golden/README.md ("games/<game>.json"), so
`weightspace conform` and tests/games/trace_test.hpp can replay it against a C++ port.

The environment class is imported by dotted path and built once per episode with the given
keyword arguments, exactly as the grader does (a fresh object per episode, so last_action
starts at 0):

  record_trace.py --env minatar.Environment \\
      --env-kwargs '{"env_name": "breakout", "sticky_action_prob": 0.1, "difficulty_ramping": false}' \\
      --channel-groups '[[0], [], [3], [1], [2], []]' --episodes 4 --output breakout.json
  PYTHONPATH=tools record_trace.py --env minatar_synth.games.breakout.BreakoutEnvironment \\
      --env-kwargs '{"sticky_action_prob": 0.1}' --episodes 6 --output tests/golden/synth/breakout.json

Controllers (--controller, repeatable; episode id k uses controller k % count):
  random              actions are RandomState(controller_seed).randint(6), one per step
  module:attribute    a Python controller. A function is called as f(env, rng) each step; a
                      class is built once per episode as C(rng) and its instance called as
                      obj(env). rng is RandomState(controller_seed), private to the controller.
                      It must not draw from env.random (checked).
--actions FILE replays fixed actions instead: one line per episode, integers separated by
commas and/or spaces.

Only Python 3 and numpy are needed.
"""

import argparse
import importlib
import inspect
import json
import numbers
import sys

import numpy as np

MT_STATE_WORDS = 624
OBSERVATION_CHANNELS = 6


class DrawCounter:
    """Counts the uint32 words drawn from one RandomState since it was created.

    MT19937's key position advances by one per word and wraps when the generator refills its
    624-word block, so the count is exact as long as fewer than 624 words are drawn between
    two update() calls (true of every MinAtar-style act and reset).
    """

    def __init__(self, generator):
        self.generator = generator
        self.count = 0
        self.position = self._position()

    def _position(self):
        return int(self.generator.get_state()[2]) % MT_STATE_WORDS

    def update(self):
        position = self._position()
        self.count += (position - self.position) % MT_STATE_WORDS
        self.position = position
        return self.count


def import_attribute(dotted, separator="."):
    module_name, _, attribute = dotted.rpartition(separator)
    if not module_name:
        raise SystemExit(f"expected a module path before {separator!r} in {dotted!r}")
    return getattr(importlib.import_module(module_name), attribute)


def state_indices(state):
    state = np.asarray(state)
    if state.ndim != 3 or state.shape[:2] != (10, 10):
        raise SystemExit(f"env.state() has shape {state.shape}, expected (10, 10, C)")
    return [int(i) for i in np.flatnonzero(state.reshape(-1))]


def observation_indices(state, groups):
    state = np.asarray(state, dtype=bool)
    observation = np.zeros((10, 10, OBSERVATION_CHANNELS), dtype=bool)
    for output, sources in enumerate(groups):
        if sources:
            observation[:, :, output] = np.any(state[:, :, list(sources)], axis=2)
    return [int(i) for i in np.flatnonzero(observation.reshape(-1))]


def plain_number(value):
    """Python int for integer rewards (including numpy ints and bools), float otherwise."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise SystemExit(f"reward {value!r} is not a number")


def channel_names(env, count):
    for holder in (env, getattr(env, "env", None)):
        if holder is None:
            continue
        names = getattr(holder, "channel_names", None)
        if names is not None and len(names) == count:
            return [str(name) for name in names]
        channels = getattr(holder, "channels", None)
        if isinstance(channels, dict) and len(channels) == count:
            by_index = {int(index): str(name) for name, index in channels.items()}
            if sorted(by_index) == list(range(count)):
                return [by_index[i] for i in range(count)]
    return [str(i) for i in range(count)]


def game_name(env, env_class, override):
    if override:
        return override
    for attribute in ("env_name", "name"):
        value = getattr(env, attribute, None)
        if isinstance(value, str):
            return value
    return env_class.__module__.rpartition(".")[2]


def ramping_flag(env_class, kwargs):
    if "difficulty_ramping" in kwargs:
        return bool(kwargs["difficulty_ramping"])
    try:
        parameter = inspect.signature(env_class).parameters.get("difficulty_ramping")
    except (TypeError, ValueError):
        parameter = None
    if parameter is not None and parameter.default is not inspect.Parameter.empty:
        return bool(parameter.default)
    return False


class RandomController:
    label = "random"

    def __init__(self, rng):
        self.rng = rng

    def __call__(self, env):
        return int(self.rng.randint(6))


def make_controllers(specs):
    controllers = []
    for spec in specs:
        if spec == "random":
            controllers.append(("random", RandomController))
            continue
        target = import_attribute(spec, ":") if ":" in spec else import_attribute(spec)
        if inspect.isclass(target):
            controllers.append((getattr(target, "label", "heuristic"), target))
        else:
            controllers.append((getattr(target, "label", "heuristic"),
                                lambda rng, function=target: (lambda env: function(env, rng))))
    return controllers


def read_action_lines(path):
    episodes = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            fields = line.replace(",", " ").split()
            if fields:
                episodes.append([int(field) for field in fields])
    return episodes


def record_episode(env_class, kwargs, episode_id, env_seed, choose, max_steps, groups):
    env = env_class(**kwargs)
    env.seed(env_seed)
    counter = DrawCounter(env.random)

    def check_generator(where):
        if env.random is not counter.generator:
            raise SystemExit(f"episode {episode_id}: env.random was replaced during {where}; "
                             "only seed() may replace it")

    env.reset()
    check_generator("reset()")
    after_reset = counter.update()
    state = env.state()
    initial_state = state_indices(state)
    observations = [observation_indices(state, groups)]
    steps = []
    score = 0
    terminal = False
    while not terminal and len(steps) < max_steps:
        action = choose(env, len(steps))
        if action is None:
            break
        check_generator("the controller")
        if counter.update() != (steps[-1][4] if steps else after_reset):
            raise SystemExit(f"episode {episode_id}: the controller drew from env.random")
        reward, terminal = env.act(int(action))
        check_generator("act()")
        reward = plain_number(reward)
        terminal = bool(terminal)
        score += reward
        state = env.state()
        steps.append([int(action), int(env.last_action), reward, int(terminal), counter.update(),
                      state_indices(state)])
        if len(observations) < 30:
            observations.append(observation_indices(state, groups))
    return env, {
        "length": len(steps),
        "score": score,
        "terminated": terminal,
        "truncated": not terminal and len(steps) >= max_steps,
        "rng_u32_count_after_reset": after_reset,
        "initial_state": initial_state,
        "observations": observations,
        "steps": steps,
    }


def compact(value):
    return json.dumps(value, separators=(",", ":"))


def block(items, opening, closing):
    """One item per line, as the golden files are written."""
    if not items:
        return opening + closing
    return opening + "\n" + ",\n".join(items) + "\n" + closing


def episode_text(episode):
    lines = []
    for key, value in episode.items():
        if key in ("observations", "steps"):
            lines.append(compact(key) + ":" + block([compact(v) for v in value], "[", "]"))
        else:
            lines.append(compact(key) + ":" + compact(value))
    return block(lines, "{", "}")


def trace_text(header, episodes):
    lines = [compact(key) + ":" + compact(value) for key, value in header.items()]
    lines.append('"episodes":' + block([episode_text(e) for e in episodes], "[", "]"))
    return block(lines, "{", "}") + "\n"


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, help="dotted path of the environment class")
    parser.add_argument("--env-kwargs", default="{}", help="JSON object of constructor arguments")
    parser.add_argument("--game", help="game name written to the trace (default: from the env)")
    parser.add_argument("--episodes", type=int, help="number of episodes (default 1, or one "
                        "per line of --actions)")
    parser.add_argument("--first-episode-id", type=int, default=0)
    parser.add_argument("--seed-base", type=int, default=1729, help="env_seed = base + id")
    parser.add_argument("--controller", action="append",
                        help="random (default) or module:attribute; repeat to alternate")
    parser.add_argument("--controller-seed-base", type=int, default=100000,
                        help="controller_seed = base + id")
    parser.add_argument("--actions", help="file of actions, one episode per line")
    parser.add_argument("--max-steps", type=int, default=3000)
    parser.add_argument("--channel-groups", help="JSON list of 6 lists of raw channels per "
                        "observation channel (default for 6-channel envs: identity)")
    parser.add_argument("--output", default="-", help="trace file (default: stdout)")
    arguments = parser.parse_args(argv)
    if arguments.actions and arguments.controller:
        parser.error("--actions and --controller are exclusive")
    return arguments


def main(argv=None):
    arguments = parse_arguments(argv)
    env_class = import_attribute(arguments.env)
    kwargs = json.loads(arguments.env_kwargs)
    probe = env_class(**kwargs)
    n_channels = int(np.asarray(probe.state()).shape[2])
    if arguments.channel_groups:
        groups = [[int(c) for c in group] for group in json.loads(arguments.channel_groups)]
    elif n_channels == OBSERVATION_CHANNELS:
        groups = [[c] for c in range(OBSERVATION_CHANNELS)]
    else:
        raise SystemExit(f"the env has {n_channels} channels: give --channel-groups")
    if len(groups) != OBSERVATION_CHANNELS or any(not 0 <= c < n_channels for g in groups for c in g):
        raise SystemExit(f"--channel-groups needs 6 lists of channels in 0..{n_channels - 1}")

    action_lines = read_action_lines(arguments.actions) if arguments.actions else None
    count = arguments.episodes
    if count is None:
        count = len(action_lines) if action_lines is not None else 1
    if action_lines is not None and count > len(action_lines):
        raise SystemExit(f"{arguments.actions} has {len(action_lines)} episodes, {count} asked")
    controllers = make_controllers(arguments.controller or ["random"])

    header = {
        "format": "minatar-golden/game",
        "format_version": 1,
        "seed_offset": 0,
        "game": game_name(probe, env_class, arguments.game),
        "n_channels": n_channels,
        "channel_names": channel_names(probe, n_channels),
        "observation_channel_groups": groups,
        "state_index": "(y*10+x)*n_channels+c",
        "observation_index": "(y*10+x)*6+channel",
        "step_fields": ["action", "effective_action", "reward", "terminal", "rng_u32_count",
                        "state"],
    }
    score_cap = getattr(env_class, "score_cap", None)
    if score_cap is not None:
        header["score_cap"] = float(score_cap)

    ramping = ramping_flag(env_class, kwargs)
    episodes = []
    for index in range(count):
        episode_id = arguments.first_episode_id + index
        env_seed = arguments.seed_base + episode_id
        controller_seed = arguments.controller_seed_base + episode_id
        if action_lines is not None:
            actions = action_lines[index]
            label, seed_field = "actions", None
            choose = lambda env, step, actions=actions: actions[step] if step < len(actions) else None
        else:
            label, factory = controllers[episode_id % len(controllers)]
            seed_field = controller_seed
            policy = factory(np.random.RandomState(controller_seed))
            choose = lambda env, step, policy=policy: policy(env)
        env, fields = record_episode(env_class, kwargs, episode_id, env_seed, choose,
                                     arguments.max_steps, groups)
        episodes.append({
            "id": episode_id,
            "env_seed": env_seed,
            "difficulty_ramping": ramping,
            "sticky_action_prob": float(env.sticky_action_prob),
            "controller": label,
            "controller_seed": seed_field,
            "max_steps": arguments.max_steps,
            **fields,
        })

    text = trace_text(header, episodes)
    if arguments.output == "-":
        sys.stdout.write(text)
    else:
        with open(arguments.output, "w", encoding="utf-8") as handle:
            handle.write(text)
        for episode in episodes:
            print(f"episode {episode['id']}: seed {episode['env_seed']} "
                  f"{episode['controller']} length {episode['length']} score {episode['score']}",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
