"""How a run executes, not what it decides: worker processes and shards, progress, the compiled
rules engine, start-up work and the fault suite's fail points."""
