"""Questions asked of the engine: removal, closed forms, pricing, deal, verify, simulation."""
