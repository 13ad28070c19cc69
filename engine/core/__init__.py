"""The engine core: contract, PRNG, options, registry, built-in bot base."""
