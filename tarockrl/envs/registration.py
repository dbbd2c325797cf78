"""Gymnasium registration of every game: ``tarockrl/<Game>-v0`` for ``gymnasium.make`` and ``make_vec``.

``register_envs()`` runs when ``tarockrl`` is imported; it is idempotent and registers games added later too.
"""

from __future__ import annotations

import warnings

__all__ = ["register_envs"]


def register_envs() -> list[str]:
    """Register ``tarockrl/<Game>-v0`` for every game of ``tarockrl.list_games()``; returns the ids.

    ``gymnasium.make(id, **kwargs)`` builds the single-agent env (``tarockrl.envs.single``), and
    ``gymnasium.make_vec(id, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)`` the batched
    vector env (``tarockrl.envs.vector``). A game whose module fails to import is skipped with a warning.
    """
    try:
        from gymnasium.envs.registration import register, registry
    except ImportError:  # pragma: no cover - gymnasium is a dependency
        return []
    from tarockrl import games

    # display names without importing the game modules when the registry knows them (keeps `import tarockrl` light)
    known = getattr(games, "DISPLAY_NAMES", {})
    ids = []
    for name in games.list_games():
        try:
            display = known[name] if name in known else games.game_definition(name).display_name
        except Exception as err:  # a game under construction must not break `import tarockrl`
            warnings.warn(f"tarockrl: game {name!r} failed to load ({err!r}); no Gymnasium env for it", stacklevel=2)
            continue
        gid = f"tarockrl/{display}-v0"
        ids.append(gid)
        if gid in registry:
            continue
        register(
            id=gid,
            entry_point=f"tarockrl.envs.single:{display}Env",
            vector_entry_point=f"tarockrl.envs.vector:{display}VectorEnv",
            nondeterministic=False,
        )
    return ids
