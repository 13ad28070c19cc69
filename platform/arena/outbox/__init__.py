"""The transactional outbox: task messages saved with the change that asks for them and
sent once the broker takes them (see ``arena.queue`` for the one way to add one)."""
