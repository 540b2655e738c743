"""The REST API, a module a resource: each view translates HTTP to the same service calls the pages make."""
