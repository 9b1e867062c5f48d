"""The four papers the toolkit verifies, each a source package.

Each package defines ``SOURCE``, a :class:`~implicit_bias.claims.source.Source`
registered through the entry-point group ``implicit_bias.sources`` exactly as
a third party's source is; nothing in the framework names them.
"""
