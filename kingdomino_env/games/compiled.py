"""The compiled game interface: what compiled code (the `csearch` agent's search) needs of a game, called the same
way for every game.

Each game registers a `CompiledGame`: numba kernels over game 0 of a state record (a one-game batch; the sampler
over any game b), each taking the state record, the variant's constants record, then its own arguments. Compiled
callers call the functions of this module (`legal_mask`, `step`, `sample_hidden`, `rank_key`, ...), and numba picks
the game's kernel from the class of the state record while it compiles the caller: one caller serves every game, is
compiled once per game and never branches on the game. `per_game` makes such a function for any table of per-game
kernels (the search adds its own: priors, leaf values, playouts).

Plain tuples of the arrays and constants (`State.arrays`, `State.constants`, what kernels are handed) are named
with `as_records`, and records turned back into plain tuples with `as_tuple`; `copy_state`, `copy_game` and `project`
work on any record of arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from .dominoes import N_DOMINOES


class CompiledGame(NamedTuple):
    """One game's compiled kernels (each over game 0 of a one-game `arrays` record, with a `variant` record).

    arrays, variant: the classes of the state record and the constants record.
    new_work: `(st, v) -> work`, the scratch arrays `step` needs (a tuple made once per caller).
    legal_mask: `(st, v, out)`, out (1, n_actions) bool: the legal actions of the player to move.
    step: `(st, v, action, work) -> status`: `board.OK`, or `board.ILLEGAL` with the game untouched.
    sample_hidden: `(st, v, b, boxes, pool)`: replace, in place, every hidden order's undrawn part in game b (the
        deck's, by box: `boxes` is `Rules.deck_boxes`; the building pile's where there is one) by a uniformly
        random order of what has not been seen (numba's generator); pool (96,) int64 scratch.
    rank_key: `(st, v, k) -> int64`: kingdom k's ranking key, higher ranks ahead, equal keys tie (the game's own
        tie-breaks).
    kingdom_to_move: `(st, v) -> int64`: the kingdom of the seat to move.
    forced_steps_in_tree: whether a decision with a single legal action is a node of a search tree (else it is
        played where it comes, without one).
    """

    arrays: type
    variant: type
    new_work: Callable
    legal_mask: Callable
    step: Callable
    sample_hidden: Callable
    rank_key: Callable
    kingdom_to_move: Callable
    forced_steps_in_tree: bool


#: The registered games by the class of their state record.
GAMES: dict[type, CompiledGame] = {}


def register(game: CompiledGame) -> None:
    """Register a game's kernels; its records' field counts must differ from every other game's (`as_records`
    names plain tuples by them)."""
    for other in GAMES.values():
        if (len(other.arrays._fields), len(other.variant._fields)) == (len(game.arrays._fields),
                                                                        len(game.variant._fields)):
            raise ValueError(f"{game.arrays.__name__} has as many fields as {other.arrays.__name__}")
    GAMES[game.arrays] = game


def _game_of(record: types.Type) -> CompiledGame | None:
    """The registered game whose state record has numba type `record`, if any."""
    if isinstance(record, types.BaseNamedTuple):
        return GAMES.get(record.instance_class)
    return None


def per_game(name: str, kernels: Callable[[CompiledGame], Callable]) -> Callable:
    """A function callable from numba, `name(st, *args)`, that runs `kernels(game)(st, *args)` for the game of the
    state record `st` (chosen at compile time). The kernel's Python function is the implementation itself, compiled
    into the caller, with no wrapper between (a wrapper would compile, and optimise, the kernel's callees once
    more). It is compiled with the flags of a plain `njit` kernel, so that a kernel called both from such a kernel
    and from within another `per_game` function compiles once (numba keys an overload's compiles by its caller's
    flags)."""

    def dispatch(st, *args):
        raise TypeError(f"{name} is called from compiled code only")

    @overload(dispatch, strict=False, jit_options={"no_cpython_wrapper": False})
    def _typed(st, *args):
        game = _game_of(st)
        return kernels(game).py_func if game is not None else None

    dispatch.__name__ = dispatch.__qualname__ = name
    return dispatch


def by_game(table: dict[type, Callable], name: str) -> Callable:
    """`per_game` over a table of kernels by state record class (kernels a caller adds for its own ends)."""
    return per_game(name, lambda game: table[game.arrays])


new_work = per_game("new_work", lambda game: game.new_work)
legal_mask = per_game("legal_mask", lambda game: game.legal_mask)
step = per_game("step", lambda game: game.step)
sample_hidden = per_game("sample_hidden", lambda game: game.sample_hidden)
rank_key = per_game("rank_key", lambda game: game.rank_key)
kingdom_to_move = per_game("kingdom_to_move", lambda game: game.kingdom_to_move)


def forced_steps_in_tree(st):
    """Whether the game of state record `st` keeps its forced steps (one legal action) in a search tree."""
    raise TypeError("forced_steps_in_tree is called from compiled code only")


@overload(forced_steps_in_tree, inline="always")
def _forced_steps_in_tree(st):
    game = _game_of(st)
    if game is not None:
        flag = game.forced_steps_in_tree
        return lambda st: flag
    return None


def as_records(arrays, constants):
    """(state record, constants record): the plain tuples of a registered game's arrays and constants, named."""
    raise TypeError("as_records is called from compiled code only")


@overload(as_records, inline="always")
def _as_records(arrays, constants):
    if not isinstance(arrays, types.BaseTuple) or not isinstance(constants, types.BaseTuple):
        return None
    for game in GAMES.values():
        if (len(game.arrays._fields), len(game.variant._fields)) == (len(arrays), len(constants)):
            record, variant = game.arrays, game.variant
            return lambda arrays, constants: (record(*arrays), variant(*constants))
    return None


def _same_arrays(dst: types.Type, src: types.Type) -> bool:
    """Whether the records `dst` and `src` hold, place by place, C-contiguous arrays of one dtype and rank, those
    of `dst` writeable."""
    if not (isinstance(dst, types.BaseTuple) and isinstance(src, types.BaseTuple) and len(dst) == len(src)):
        return False
    return all(isinstance(d, types.Array) and isinstance(s, types.Array) and d.dtype == s.dtype and d.ndim == s.ndim
               and d.layout == "C" and s.layout == "C" and d.mutable for d, s in zip(dst.types, src.types, strict=True))


def _copy_arrays(context, builder, dst, src, records, game):
    """Copy, array by array, the games from `game` on of the record value records[1] (of type `src`) into the
    record value records[0] (of type `dst`), as many items as each array of `dst` holds; `game` None: the whole
    array."""
    for i, (d, s) in enumerate(zip(dst.types, src.types, strict=True)):
        into = context.make_array(d)(context, builder, builder.extract_value(records[0], i))
        source = context.make_array(s)(context, builder, builder.extract_value(records[1], i))
        itemsize = context.get_abi_sizeof(context.get_data_type(s.dtype))
        start = source.data
        if game is not None:
            per_game = context.get_constant(types.intp, 1)
            for extent in cgutils.unpack_tuple(builder, source.shape)[1:]:
                per_game = builder.mul(per_game, extent)
            start = builder.gep(source.data, [builder.mul(per_game, game)])
        cgutils.raw_memcpy(builder, into.data, start, into.nitems, itemsize)


@intrinsic
def copy_state(typingctx, dst, src):
    """Copy every array of the record `src` into the array at the same place of `dst` (same dtypes and sizes,
    C-contiguous): one memory copy per array, whatever the record."""
    if not _same_arrays(dst, src):
        return None

    def codegen(context, builder, signature, args):
        _copy_arrays(context, builder, dst, src, args, None)
        return context.get_dummy_value()

    return types.none(dst, src), codegen


@intrinsic
def copy_game(typingctx, dst, src, b):
    """Copy game b of the record `src` (a batch) into the one-game record `dst` of the same arrays: one memory copy
    per array. b must be a game of `src`; it is not checked."""
    if not (_same_arrays(dst, src) and isinstance(b, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        game = context.cast(builder, args[2], b, types.intp)
        _copy_arrays(context, builder, dst, src, args, game)
        return context.get_dummy_value()

    return types.none(dst, src, b), codegen


@intrinsic
def project(typingctx, st, record):
    """The record of class `record` holding the arrays of the same names in the record `st` (a view: the arrays
    are shared)."""
    if not (isinstance(st, types.BaseNamedTuple) and isinstance(record, types.NamedTupleClass)):
        return None
    names = st.instance_class._fields
    fields = record.instance_class._fields
    if any(f not in names for f in fields):
        return None
    at = [names.index(f) for f in fields]
    result = types.NamedTuple([st.types[i] for i in at], record.instance_class)

    def codegen(context, builder, signature, args):
        values = [builder.extract_value(args[0], i) for i in at]
        for value, kind in zip(values, result.types, strict=True):
            context.nrt.incref(builder, kind, value)
        return context.make_tuple(builder, result, values)

    return result(st, record), codegen


@intrinsic
def as_tuple(typingctx, record):
    """The record `record` as a plain tuple of its fields (what the core's batch kernels are compiled for, so that a
    one-game caller shares their compiled code)."""
    if not isinstance(record, types.BaseNamedTuple):
        return None
    plain = types.Tuple(record.types) if isinstance(record, types.NamedTuple) else types.UniTuple(record.dtype,
                                                                                                   record.count)

    def codegen(context, builder, signature, args):
        values = [builder.extract_value(args[0], i) for i in range(len(record))]
        for value, kind in zip(values, plain.types, strict=True):
            context.nrt.incref(builder, kind, value)
        return context.make_tuple(builder, plain, values)

    return plain(record), codegen


@njit(cache=True)
def shuffle_unseen(order, known, base, n_ids, positions, pool):
    """Refill order[i] for the positions i >= known among `positions` (in their order) with a uniformly random
    ordered sample of the ids base .. base + n_ids - 1 not among the order's entries at positions below `known`
    (numba's generator, one draw per refilled position). pool: (n_ids,) int64 scratch or longer."""
    seen = np.zeros(n_ids, dtype=np.bool_)
    for i in positions:
        if i < known:
            seen[order[i] - base] = True
    k = 0
    for d in range(n_ids):
        if not seen[d]:
            pool[k] = base + d
            k += 1
    j = 0
    for i in positions:
        if i >= known:
            pick = j + int(np.random.random() * (k - j))
            pool[j], pool[pick] = pool[pick], pool[j]
            order[i] = pool[j]
            j += 1


@njit(cache=True)
def resample(arrays, constants, boxes, seed):
    """Sample, in place, every hidden order of every game of a batch (`sample_hidden`), numba's generator seeded
    with `seed` first: the one sampler of the agents' determinisation and of the compiled search."""
    st, v = as_records(arrays, constants)
    np.random.seed(seed)
    pool = np.zeros(2 * N_DOMINOES, dtype=np.int64)
    for b in range(st.deck.shape[0]):
        sample_hidden(st, v, b, boxes, pool)


@njit(cache=True)
def sample_deck(deck, drawn, boxes, pool):
    """Reorder, in place, each box's undrawn dominoes among that box's positions of `deck` from `drawn` on (a
    uniformly random order of the dominoes of the box not yet drawn); boxes (deck size,): the box of each position
    (box k holds ids 48 * k .. 48 * k + 47)."""
    for box in range(boxes.max() + 1):
        shuffle_unseen(deck, drawn, box * N_DOMINOES, N_DOMINOES, np.flatnonzero(boxes == box), pool)
