"""People's news: notifications, results in words, events."""
