"""Server-Sent Events read line by line from an open response."""

import json


def read_events(lines):
    """Yields {id, event, data} for each complete event; `data` is parsed JSON where it is JSON, else the text."""
    event_id, event, data = None, "message", []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n") if isinstance(raw, bytes) else raw.rstrip("\r\n")
        if line == "":
            if data:
                text = "\n".join(data)
                try:
                    value = json.loads(text)
                except ValueError:
                    value = text
                yield {"id": event_id, "event": event, "data": value}
            event_id, event, data = None, "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            data.append(value)
        elif field == "event":
            event = value
        elif field == "id":
            event_id = value
