"""Play in the browser: ``tarockrl serve`` starts a small local ASGI app (:mod:`tarockrl.web.app`)."""
