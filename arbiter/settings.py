"""Arbiter's one settings file, driven by environment variables (see .env.example)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

from arbiter.env import ConfigError, env_bool, env_int, env_list, env_networks, env_range, env_rate, env_str, secret_key
from judging import queues
from sandbox.conf import default_root as default_sandbox_root

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("ARBITER_VAR_DIR", str(BASE_DIR / "var"))).resolve()
# `make test` runs the suite in several processes (pytest-xdist): each gets a folder of its own
# (its test database, broker folder, jails' root) and, below, a Redis database of its own.
_TEST_PROCESS = os.environ.get("PYTEST_XDIST_WORKER", "")
if _TEST_PROCESS:
    VAR_DIR = VAR_DIR / _TEST_PROCESS

SECRET_KEY = secret_key(VAR_DIR)
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
PORT = env_int("PORT", 8000, minimum=1, maximum=65535)
SITE_NAME = env_str("SITE_NAME", "Arbiter")
# Where contestants clone Arbiter from to play at home (the contest pages say so).
SOURCE_URL = env_str("SOURCE_URL", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "accounts",
    "contests",
    "games",
    "judging",
    "sandbox",
    "web",
]

MIDDLEWARE = [
    "web.uploads.UploadSizeMiddleware",  # first: a body over the cap is refused unread
    "web.limits.BodySizeMiddleware",  # and a JSON or form body over its own, smaller one
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the visitor's language: its cookie, else Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.language.PersonLanguageMiddleware",  # a logged-in person's own choice of language
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "web.policy.PagePolicyMiddleware",  # what the site's frames may hold (docs/security.md)
    "axes.middleware.AxesMiddleware",  # last: it answers a locked-out log-in
]

# Log-in attempts are throttled (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords from
# one address (for any account, or for one account) that address is refused for
# LOGIN_LOCKOUT_MINUTES with a 429 and a sentence; a success resets the count. API tokens are
# not passwords and are not counted. The address is accounts.addresses.client_address's.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = ["ip_address", ["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "accounts.addresses.client_address"
AXES_VERBOSE = False

ROOT_URLCONF = "arbiter.urls"
WSGI_APPLICATION = "arbiter.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "arbiter.context_processors.site",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'arbiter.sqlite3'}")
try:
    _database = dj_database_url.parse(DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0))
except ValueError as e:
    raise ConfigError(f"DATABASE_URL is not a database URL Arbiter understands: {e}") from None
if _database["ENGINE"] == "django.db.backends.sqlite3":
    # The web server and the worker write to the same file: WAL lets readers go on while
    # one writes, IMMEDIATE takes the write lock up front instead of failing mid-transaction.
    _database["CONN_MAX_AGE"] = 0
    _database["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not memory: a worker process started by the tests must see the test database.
    _database["TEST"] = {"NAME": str(VAR_DIR / "test_arbiter.sqlite3")}
    Path(_database["NAME"]).parent.mkdir(parents=True, exist_ok=True)
elif _database["ENGINE"] == "django.db.backends.postgresql":
    _database["CONN_HEALTH_CHECKS"] = True
else:
    raise ConfigError(f"DATABASE_URL uses {_database['ENGINE']}; Arbiter supports sqlite:// and postgres://")
DATABASES = {"default": _database}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Accounts -------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
# The site's languages (docs/translating.md): a page is in the visitor's, chosen in the header
# (a cookie) or by the browser's Accept-Language, else English. A contest's rules stay as written.
LANGUAGES = [("en", "English"), ("nl", "Nederlands")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Files ----------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "static"
# Submissions and replays. With many machines, a folder every web and worker host mounts.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", str(VAR_DIR / "media"))).resolve()
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns about a missing one
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# The largest request body accepted, refused by its Content-Length before it is read: a few
# times the largest contest source limit (the demo's is 5 MiB). Each contest's own
# max_source_bytes then stops a file while it arrives.
UPLOAD_MAX_BYTES = env_int("UPLOAD_MAX_BYTES", 16 * 1024 * 1024, minimum=64 * 1024)
# A body that is not a multipart upload (JSON, a form), refused by its Content-Length before it
# is read (web.limits); also the most the fields beside an upload's files may hold.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("BODY_MAX_BYTES", 1024 * 1024, minimum=16 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024  # a larger file goes to a temp file
# The longest an API request sent with an Idempotency-Key may take once its body is read: an
# answer later than this keeps nothing (a 503 to send it again), so a claim of the key older
# than this is free again for a retry (its request died with its process: web/api_support.py).
REQUEST_TIME_LIMIT = env_int("REQUEST_TIME_LIMIT", 60, minimum=5)

# --- Security -------------------------------------------------------------------------
# Behind a proxy that ends HTTPS (docs/deployment.md): it says so in X-Forwarded-Proto, plain
# HTTP is redirected to HTTPS (but /health/ and /metrics, which monitors ask on the inside), and
# cookies go over HTTPS only. HSTS_SECONDS > 0 has browsers use HTTPS alone for that long.
_BEHIND_HTTPS_PROXY = env_bool("BEHIND_HTTPS_PROXY", False)
if _BEHIND_HTTPS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SSL_REDIRECT", _BEHIND_HTTPS_PROXY)
SECURE_REDIRECT_EXEMPT = [r"^health/$", r"^metrics$"]
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", _BEHIND_HTTPS_PROXY)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Rules (Markdown) may show images from other sites: every reader's browser then fetches them.
RULES_REMOTE_IMAGES = env_bool("RULES_REMOTE_IMAGES", False)

# --- Celery ---------------------------------------------------------------------------
BROKER_DIR = VAR_DIR / "broker"
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://localhost/")  # kombu warns of no host
if CELERY_BROKER_URL.startswith("filesystem://"):
    # kombu's filesystem transport: messages are files in one folder that producers and
    # consumers share, so one machine needs no broker process at all.
    for _sub in ("queue", "processed", "control"):
        (BROKER_DIR / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
        "polling_interval": 0.1,
    }
elif CELERY_BROKER_URL.split("://", 1)[0] in ("redis", "rediss"):
    if _TEST_PROCESS:  # gw0 -> database 1, gw1 -> 2, ...
        CELERY_BROKER_URL = CELERY_BROKER_URL.rsplit("/", 1)[0] + f"/{1 + int(_TEST_PROCESS.removeprefix('gw'))}"
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 6 * 3600}
else:
    raise ConfigError(f"CELERY_BROKER_URL={CELERY_BROKER_URL!r}: use filesystem:// or redis://HOST:PORT/DB")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = queues.DEFAULT
CELERY_TASK_QUEUES = queues.kombu_queues()
CELERY_TASK_ROUTES = queues.ROUTES
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_WORKER_SEND_TASK_EVENTS = False
# The worker's timer thread sleeps at most this long, and a stop waits for its sleep to end
# (Celery's default, 1 s, was a fifth of the 5 s honcho gives `make run`'s worker on Ctrl-C).
CELERY_WORKER_TIMER_PRECISION = 0.1
# A task that outlives this is killed. A match's token carries its own limit: this, or a race's
# or an output-only run's seconds and a margin when longer (judging.dispatch.time_budget).
CELERY_TASK_TIME_LIMIT = env_int("TASK_TIME_LIMIT", 3600, minimum=10)
# A worker claims no match and builds nothing while a disk it writes on (media, sandbox, build
# cache) has less than this free (judging/disks.py).
DISK_MIN_FREE_MB = env_int("DISK_MIN_FREE_MB", 200, minimum=0)
# How often each worker, and each match being played, says it is alive; a match silent for four
# times this is given up as lost and played again (ahead of the queue).
WORKER_HEARTBEAT_SECONDS = env_int("WORKER_HEARTBEAT_SECONDS", 5, minimum=1)
# How long a finished game waits for a database that is away before its worker gives up (its
# result stays in the spool, written by the watchdog when the database is back).
DATABASE_WAIT_SECONDS = env_int("DATABASE_WAIT_SECONDS", 1800, minimum=1)

# A bearer token Prometheus sends to read /metrics; blank: /metrics is open, like /health/.
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# How logs are written: "text" (a line each, the contest, stage, match and attempt at its end)
# or "json" (an object a line, for a log collector).
LOG_FORMAT = env_str("LOG_FORMAT", "text")
if LOG_FORMAT not in ("text", "json"):
    raise ConfigError(f"LOG_FORMAT={LOG_FORMAT!r} is neither text nor json")

# --- Sandbox (see docs/security.md) -----------------------------------------------------
# This installation's own folder on every worker host (slot locks, work folders); its cgroups
# are named after it. Two installations on one host must not share it: the default is one
# per ARBITER_VAR_DIR, under /tmp (the jails' uids must be able to reach it).
SANDBOX_ROOT = Path(env_str("SANDBOX_ROOT", "") or default_sandbox_root(VAR_DIR))
SANDBOX_CACHE_DIR = Path(env_str("SANDBOX_CACHE_DIR", str(VAR_DIR / "build-cache")))
# Programs this installation runs at once on a worker host: by default as many as the host has
# cores (those this process may run on), and never fewer than a two-seat match of an uploaded
# game needs: its two players and its referee (only one of them computes at a time).
# The conformance kit cuts every clock to this many seconds in its games with a broken program
# (one that never answers is timed out at once); an uploaded game's references must answer in it.
CONFORMANCE_CLOCK_S = env_int("CONFORMANCE_CLOCK_S", 3, minimum=1)
# A Python referee's libraries (judging/uploaded/libraries.py), installed once per text of
# requirements in a read-only folder here (shared by every host, as the media are), at most
# this many MiB each.
REFEREE_LIBRARIES_DIR = Path(env_str("REFEREE_LIBRARIES_DIR", "") or MEDIA_ROOT / "referee-libraries").resolve()
REFEREE_LIBRARIES_MAX_MB = env_int("REFEREE_LIBRARIES_MAX_MB", 1024, minimum=1, maximum=1 << 20)
# at least 5: an uploaded game of four seats and its referee (docs/deployment.md)
SANDBOX_SLOTS = env_int("SANDBOX_SLOTS", max(5, len(os.sched_getaffinity(0))), minimum=1, maximum=256)
# The host-wide pool of uids jails run as; each jail leases one that no other jail on the host
# (of any installation) is using.
SANDBOX_UID_BASE = env_int("SANDBOX_UID_BASE", 60000, minimum=1000, maximum=2**31)
SANDBOX_UID_COUNT = env_int("SANDBOX_UID_COUNT", 1024, minimum=1, maximum=65536)
# Jails made ahead of need for runs in a jail of their own (builds, single runs; not a match's):
# each holds a slot, given back at once to a match that needs it (sandbox/pool.py).
SANDBOX_POOL = env_bool("SANDBOX_POOL", False)
# Development only: run untrusted code even where the jail fails part of its self-check.
# Every page and every worker log says so while it is on.
ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX = env_bool("ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX", False)

# --- REST framework -------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "DEFAULT_PARSER_CLASSES": [
        "web.api_support.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    "DEFAULT_THROTTLE_CLASSES": ["web.api_support.TokenRateThrottle"],
    "EXCEPTION_HANDLER": "web.api_support.handle_exception",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Arbiter API",
    "DESCRIPTION": "Contests, entries, submissions, matches and standings. Authenticate with a personal "
    "token from your profile page: `Authorization: Bearer arb_...`.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "web.api_support.add_error_responses",
    ],
    "ENUM_NAME_OVERRIDES": {
        "StageStatusEnum": "contests.models.Stage.Status",
        "EntryStatusEnum": "contests.models.Entry.Status",
        "SubmissionStatusEnum": "contests.models.Submission.Status",
        "MatchStatusEnum": "judging.models.Match.Status",
        "ContestRoleEnum": "contests.models.ContestRole.Role",
        "NamedRoleEnum": [("organiser", "Co-organiser"), ("judge", "Judge")],
        "GameOwnerRoleEnum": ["owner", "co-owner"],
    },
}
# --- Clients: their address, their limits ------------------------------------------------
# Peers (addresses, networks) whose X-Forwarded-For is believed: the proxies in front of the web
# hosts. Empty: none, the address is the connection's (accounts/addresses.py).
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")
# Requests per token (else per signed-in user, else per address) to the API, and per address of
# a visitor not signed in to the heavy answers (charts' data, replays, bundles, standings as
# JSON), counted in the cache below on every web host at once (web/limits.py): (requests, seconds).
API_RATE_LIMIT = env_rate("API_RATE_LIMIT", "600/min")
HEAVY_RATE_LIMIT = env_rate("HEAVY_RATE_LIMIT", "60/min")

EVENTS_STREAM_SECONDS = env_int("EVENTS_STREAM_SECONDS", 55, minimum=1)
EVENTS_POLL_SECONDS = 0.5
# Event streams a client (its account, else its address) and a web process may hold open.
EVENTS_STREAMS_PER_CLIENT = env_int("EVENTS_STREAMS_PER_CLIENT", 4, minimum=1)
EVENTS_STREAMS_MAX = env_int("EVENTS_STREAMS_MAX", 2000, minimum=1)
# Test games a contestant may ask for in one contest in any 24 hours.
TEST_GAMES_PER_DAY = env_int("TEST_GAMES_PER_DAY", 30, minimum=0)
# The games of a contestant's versus batches (judging.schedule.versus) in any 24 hours, per contest.
VERSUS_GAMES_PER_DAY = env_int("VERSUS_GAMES_PER_DAY", 200, minimum=0)

# --- Bounds of what an organiser sets (contests/bounds.py) --------------------------------
# Each MIN..MAX: a contest's clock, memory and limits, a stage's numbers, a game's parameters,
# a versus batch's games (and an uploaded game's clock and memory) outside it are refused with
# a sentence naming the bound. Wide enough for the demo contests (Sudoku's 30 s game, Wheels'
# 900 s race, Chomp's 120 s move).
BOUND_MOVE_SECONDS = env_range("BOUND_MOVE_SECONDS", (0.1, 600.0), whole=False)
BOUND_GAME_SECONDS = env_range("BOUND_GAME_SECONDS", (0.1, 1800.0), whole=False)
BOUND_RUN_SECONDS = env_range("BOUND_RUN_SECONDS", (1, 86_400))
BOUND_MEMORY_MB = env_range("BOUND_MEMORY_MB", (16, 16_384))
BOUND_SOURCE_BYTES = env_range("BOUND_SOURCE_BYTES", (64, 16 * 1024 * 1024))
BOUND_EXECUTABLE_BYTES = env_range("BOUND_EXECUTABLE_BYTES", (1024, 128 * 1024 * 1024))
BOUND_SUBMISSIONS_PER_DAY = env_range("BOUND_SUBMISSIONS_PER_DAY", (1, 1000))
BOUND_SUBMISSIONS_PER_WEEK = env_range("BOUND_SUBMISSIONS_PER_WEEK", (1, 5000))
BOUND_ENTRIES_PER_USER = env_range("BOUND_ENTRIES_PER_USER", (1, 100))
BOUND_ROUNDS = env_range("BOUND_ROUNDS", (1, 1000))
BOUND_GAMES_PER_PAIRING = env_range("BOUND_GAMES_PER_PAIRING", (1, 100))
BOUND_STAGE_NUMBER = env_range("BOUND_STAGE_NUMBER", (0, 1_000_000))
BOUND_GAME_PARAM = env_range("BOUND_GAME_PARAM", (-1_000_000, 1_000_000))
BOUND_VERSUS_GAMES = env_range("BOUND_VERSUS_GAMES", (2, 1000))

# --- Notifications and e-mail (judging/news/notifications.py) ---------------------------------
# The site's address as contestants reach it, for the links in e-mails.
SITE_URL = env_str("SITE_URL", f"http://localhost:{PORT}").rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ConfigError(f"SITE_URL={SITE_URL!r} is not an address starting with http:// or https://")
# E-mails go through this SMTP server; with no EMAIL_HOST they are printed on the worker's
# standard output instead (one machine: nothing to set up).
EMAIL_HOST = env_str("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1, maximum=65535)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    if EMAIL_USE_TLS and EMAIL_USE_SSL:
        raise ConfigError("EMAIL_USE_TLS and EMAIL_USE_SSL are both on: STARTTLS (587) or TLS from the start (465)")
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
# Seconds an SMTP connection may wait; a send that fails is tried again later by its task.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "arbiter@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# An entry's digest of its program's faults (crashes, timeouts, illegal moves) is written at most
# this often.
FAULT_DIGEST_MINUTES = env_int("FAULT_DIGEST_MINUTES", 60, minimum=1)

# --- Cache (rate limits, the ratings' debounce) -------------------------------------------
# Many machines: one Redis every web and worker host shares, or each host counts on its own.
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL.startswith(("redis://", "rediss://")):
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}}
elif CACHE_URL == "":
    # One machine: a folder shared by every process, its counters atomic across them (arbiter/cache.py).
    CACHES = {
        "default": {
            "BACKEND": "arbiter.cache.FileCache",
            "LOCATION": str(VAR_DIR / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 20000},
        }
    }
else:
    raise ConfigError(f"CACHE_URL={CACHE_URL!r}: use redis://HOST:PORT/DB, or leave it empty for a folder under var/")

# --- Logging --------------------------------------------------------------------------
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
if LOG_LEVEL not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
    raise ConfigError(f"LOG_LEVEL={LOG_LEVEL!r} is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "about": {"()": "judging.logs.AboutFilter"},
        "client_errors": {"()": "arbiter.logfilters.ClientErrorsInOneLine"},
        "client_address": {"()": "arbiter.logfilters.ClientAddress"},
    },
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s%(ids)s"},
        "json": {"()": "judging.logs.JsonFormatter"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT, "filters": ["about"]}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        "django.request": {"filters": ["client_errors", "client_address"]},
        # django-axes writes a line at INFO for every login (the failures it forgets); its
        # warnings (a lockout) stay.
        "axes": {"level": "WARNING"},
        # httpx (the command-line client's) writes a line at INFO for every request: arbiter
        # play --contest printed two among its summary's lines.
        "httpx": {"level": "WARNING"},
    },
}
