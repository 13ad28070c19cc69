from django.db import models


class OutboxMessage(models.Model):
    """A task message written in the transaction of the change that asks for it (a game
    queued, a version to validate) and deleted once the broker has taken it. A row left
    here (the broker was down, the sender died after its commit) is sent by the next drain:
    every message goes out at least once, and the tasks are safe to receive twice."""

    # Made by the sender, so that a row can be written without reading anything back
    # (the worker's store sends its statements in one round trip).
    id = models.UUIDField(primary_key=True)
    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    created_at = models.DateTimeField(db_index=True)

    class Meta:
        db_table = "arena_outbox_message"

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"
