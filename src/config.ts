import ipaddr from "ipaddr.js";
import * as v from "valibot";

const bool = (fallback: boolean) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.trim(),
    v.toLowerCase(),
    v.picklist(["true", "false", "1", "0", "yes", "no", "on", "off"], "must be true or false"),
    v.transform((s) => ["true", "1", "yes", "on"].includes(s)),
  );

const int = (fallback: number, min: number) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.trim(),
    v.regex(/^\d+$/, "must be a whole number"),
    v.transform(Number),
    v.minValue(min, `must be at least ${min}`),
  );

const optionalText = v.pipe(
  v.optional(v.string()),
  v.transform((s) => (s && s.trim() !== "" ? s.trim() : undefined)),
);

/**
 * A list from a JSON array or a comma-separated string: `["dcim.site"]` or `dcim.site,tenancy.*`.
 * Empty means unset, as for the other settings.
 */
const list = (fallback: readonly string[] = []) =>
  v.pipe(
    v.optional(v.string(), ""),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const raw = dataset.value.trim();
      if (raw === "") return [...fallback];
      if (!raw.startsWith("["))
        return raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
      try {
        const parsed = JSON.parse(raw);
        if (Array.isArray(parsed) && parsed.every((x) => typeof x === "string")) return parsed as string[];
      } catch {}
      addIssue({ message: "must be a JSON list of strings or a comma-separated list" });
      return NEVER;
    }),
  );

/**
 * NetBox's ALLOWED_HOSTS entries, matched as Django does: `*`, a host name, or `.example.com` for
 * that domain and its subdomains; no ports (the Host is matched without its port).
 */
const hostList = v.pipe(
  list(["*"]),
  v.check(
    (hosts) => hosts.length > 0 && hosts.every((h) => /^(\*|\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?|\[[0-9a-f:.]+\])$/i.test(h)),
    "must list host names, .example.com for a domain and its subdomains, or *",
  ),
);

/** NetBox's default: every user may manage their own tokens. */
// NetBox 4.2's: every user keeps their own bookmarks, notifications, subscriptions and tokens.
const DEFAULT_PERMISSIONS = {
  "extras.view_bookmark": { user: "$user" },
  "extras.add_bookmark": { user: "$user" },
  "extras.change_bookmark": { user: "$user" },
  "extras.delete_bookmark": { user: "$user" },
  "extras.view_notification": { user: "$user" },
  "extras.change_notification": { user: "$user" },
  "extras.delete_notification": { user: "$user" },
  "extras.view_subscription": { user: "$user" },
  "extras.add_subscription": { user: "$user" },
  "extras.change_subscription": { user: "$user" },
  "extras.delete_subscription": { user: "$user" },
  "users.view_token": { user: "$user" },
  "users.add_token": { user: "$user" },
  "users.change_token": { user: "$user" },
  "users.delete_token": { user: "$user" },
};

const permissionMap = v.pipe(
  v.optional(v.string(), ""),
  v.rawTransform(({ dataset, addIssue, NEVER }): Record<string, unknown> => {
    const raw = dataset.value?.trim();
    if (!raw) return DEFAULT_PERMISSIONS as Record<string, unknown>;
    try {
      const parsed = JSON.parse(raw);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {}
    addIssue({ message: 'must be a JSON object such as {"users.add_token": {"user": "$user"}}' });
    return NEVER;
  }),
);

/** Networks (CIDR or single addresses) validated with ipaddr.js: TRUSTED_PROXIES. */
const networkList = v.pipe(
  list(),
  v.check(
    (nets) =>
      nets.every((n) => {
        try {
          if (n.includes("/")) ipaddr.parseCIDR(n);
          else ipaddr.parse(n);
          return true;
        } catch {
          return false;
        }
      }),
    "must list IPv4 or IPv6 addresses or networks such as 10.0.0.0/8",
  ),
);

const ConfigSchema = v.object({
  LIBSQL_URL: v.optional(v.string(), "file:data/inventory.db"),
  LIBSQL_AUTH_TOKEN: optionalText,
  HOST: v.optional(v.string(), "127.0.0.1"),
  PORT: v.pipe(int(8787, 0), v.maxValue(65535, "must be at most 65535")),
  SECRET_KEY: v.pipe(
    optionalText,
    v.check((s) => s === undefined || s.length >= 32, "must be at least 32 characters"),
  ),
  SUPERUSER_NAME: optionalText,
  SUPERUSER_PASSWORD: optionalText,
  SUPERUSER_API_TOKEN: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^[0-9a-f]{40}$/i.test(s), "must be 40 hexadecimal characters"),
  ),
  PAGINATE_COUNT: int(50, 1),
  MAX_PAGE_SIZE: int(1000, 0),
  ALLOW_TOKEN_RETRIEVAL: bool(true),
  EXEMPT_VIEW_PERMISSIONS: list(),
  DEFAULT_PERMISSIONS: permissionMap,
  MAINTENANCE_MODE: bool(false),
  /** Anonymous requests get nothing but EXEMPT_VIEW_PERMISSIONS reads; false also opens the roots and the status. */
  LOGIN_REQUIRED: bool(true),
  API_VERSION: v.pipe(v.optional(v.string(), "4.2"), v.trim(), v.regex(/^\d+\.\d+$/, "must be major.minor, such as 4.2")),
  ALLOWED_HOSTS: hostList,
  /** Refuse duplicate prefixes and IP addresses in the global table (VRF null), as NetBox 4.x does by default. */
  ENFORCE_GLOBAL_UNIQUE: bool(true),
  /**
   * A list refuses (400, naming it) a query parameter it cannot filter by, or a lookup its filter
   * lacks, rather than answering the whole list as NetBox does: a misspelt or unsupported filter
   * in a script must not act on every object. false ignores them, as NetBox does.
   */
  STRICT_FILTERING: bool(true),
  /**
   * Milliseconds a write waits for the database's lock while another program (a backup, `sqlite3`,
   * a second instance, a migration) holds it, counted from when the write is sent; then it is
   * refused with 503 and Retry-After, having changed nothing. Only a database thread waits.
   */
  DATABASE_BUSY_TIMEOUT: int(5000, 0),
  /**
   * Threads the Node server runs the application on (default: one per core), behind the one
   * thread that answers HTTP; 0 serves requests on that thread. A `:memory:` database always has 0.
   */
  WORKERS: v.pipe(
    v.optional(v.string()),
    v.transform((s) => (s === undefined || s.trim() === "" ? undefined : s.trim())),
    v.check((s) => s === undefined || /^\d+$/.test(s), "must be a whole number"),
    v.transform((s) => (s === undefined ? undefined : Number(s))),
  ),
  /**
   * Megabytes of JavaScript heap (old generation) each app thread may use. A thread that needs
   * more ends, answering its requests in hand 500, and is replaced. Four 10,000-object bulk
   * POSTs at once on one thread fit in the default; bounded, V8 also collects sooner (lower RSS).
   */
  WORKER_HEAP_MB: int(512, 16),
  /**
   * Megabytes of rows each reader connection of a local database file keeps while the file does
   * not change (src/runtime/read-cache.ts): a read repeated before the next commit, by this
   * service or any other program, is answered without running its SQL. 0 (the default) keeps
   * none: with 4, the large benchmark's peak RSS rose from 317 to 349-376 MB.
   */
  READ_CACHE_MB: int(0, 0),
  /** Bytes (10 MiB): a larger body is refused with 413 before it is parsed. */
  MAX_BODY_SIZE: int(10 * 1024 * 1024, 1),
  /** GraphQL: how deep selections may nest (a device's interfaces' addresses is 3). */
  GRAPHQL_MAX_DEPTH: int(10, 1),
  /** GraphQL: how many aliased fields one query may hold. */
  GRAPHQL_MAX_ALIASES: int(30, 0),
  /**
   * GraphQL: the most a query may cost before it runs: every field selected costs 1, times the
   * objects above it; a list counts its `pagination` limit, else 100 objects at the root and 10 below.
   */
  GRAPHQL_MAX_COST: int(1_000_000, 1),
  /** The most objects one bulk write may carry; the engine enforces it. */
  MAX_BULK_OBJECTS: int(10_000, 1),
  /** Proxies whose X-Forwarded-For names the client (Node and Deno; Workers use CF-Connecting-IP). */
  TRUSTED_PROXIES: networkList,
  /** Seconds a browser session lasts (NetBox's LOGIN_TIMEOUT: two weeks). */
  LOGIN_TIMEOUT: int(1_209_600, 60),
  /** Failed logins or provisioning attempts per (username, client address) allowed in a minute; an address alone may fail five times as often (auth/throttle.ts). */
  LOGIN_FAILURE_LIMIT: int(10, 1),
  /** Passwords set through the API: at least this long ... */
  PASSWORD_MIN_LENGTH: int(12, 1),
  /** ... and with a character of each of these classes (`upper`, `lower`, `digit`, `symbol`); `none`: no class needed. */
  PASSWORD_CHARACTER_CLASSES: v.pipe(
    list(["upper", "lower", "digit"]),
    v.check(
      (xs) => xs.every((x) => ["upper", "lower", "digit", "symbol", "none"].includes(x)),
      "must list upper, lower, digit or symbol, or be none",
    ),
  ),
  /** Days change records are kept; 0 keeps them forever. The sweep deletes older ones. */
  CHANGELOG_RETENTION: int(90, 0),
  /** Seconds a webhook request may take, connection to last byte read. */
  WEBHOOK_TIMEOUT: int(10, 1),
  /** Automatic retries of a failed delivery (0: none, as SPEC.md 3 says), with exponential backoff and jitter. */
  WEBHOOK_MAX_RETRIES: int(0, 0),
  /** Seconds before the first automatic retry; each further one waits twice as long (at most an hour). */
  WEBHOOK_RETRY_BACKOFF: int(30, 1),
  /** Seconds a delivery may stay queued before the sweep enqueues it again (a lost queue message). */
  WEBHOOK_SWEEP_AFTER: int(60, 1),
  /** Seconds between sweeps of the in-process consumer (Node, Deno); on Workers the cron trigger sweeps. */
  WEBHOOK_SWEEP_INTERVAL: int(60, 1),
  /** Deliveries the in-process consumer sends at once. */
  WEBHOOK_CONCURRENCY: int(16, 1),
  /** Bytes a webhook's `payload_url`, `additional_headers` or `body_template` may hold; a longer one is refused on save. */
  WEBHOOK_TEMPLATE_MAX_SIZE: int(64 * 1024, 1),
  /**
   * Bytes a delivery's rendered URL, headers and body may reach together; rendering stops there
   * (and after four times as many template steps) and the run fails without sending.
   */
  WEBHOOK_RENDER_MAX_SIZE: int(1024 * 1024, 1),
  /** URL schemes a rendered webhook URL may use. */
  WEBHOOK_ALLOWED_SCHEMES: list(["http", "https"]),
  /** Networks a webhook may never reach: link-local and the cloud metadata addresses by default. */
  WEBHOOK_BLOCKED_NETWORKS: v.pipe(
    list(["169.254.0.0/16", "fe80::/10", "fd00:ec2::254/128", "100.100.100.200/32"]),
    v.check((nets) => nets.every((n) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(n)), "must list IP networks such as 169.254.0.0/16"),
  ),
  /** When set, the only host names (or `.domain` suffixes) a webhook may reach. */
  WEBHOOK_ALLOWED_HOSTS: list(),
  /**
   * Node and Deno: the folder uploaded files (image attachments, device type images) are kept in;
   * default `media/` beside the database file (`data/media` for `:memory:` and remote databases).
   * Workers keep them in the `MEDIA` R2 bucket binding instead.
   */
  MEDIA_ROOT: optionalText,
  /** Bytes an uploaded image may hold (5 MiB); a larger one is refused with 400. */
  IMAGE_MAX_SIZE: int(5 * 1024 * 1024, 1),
  /** Bytes a data source's file may hold when synced (10 MiB); reading stops there and the sync fails. */
  DATA_SOURCE_MAX_SIZE: int(10 * 1024 * 1024, 1),
  /** Seconds a data source's sync may take to fetch its file. */
  DATA_SOURCE_TIMEOUT: int(30, 1),
  /** Networks a data source may never be fetched from (default: as WEBHOOK_BLOCKED_NETWORKS's). */
  DATA_SOURCE_BLOCKED_NETWORKS: v.pipe(
    list(["169.254.0.0/16", "fe80::/10", "fd00:ec2::254/128", "100.100.100.200/32"]),
    v.check((nets) => nets.every((n) => /^[0-9a-f.:]+(\/\d{1,3})?$/i.test(n)), "must list IP networks such as 169.254.0.0/16"),
  ),
  /** When set, the only host names (or `.domain` suffixes) a data source may be fetched from. */
  DATA_SOURCE_ALLOWED_HOSTS: list(),
});

/** The parsed settings; names follow the environment variables (see README). */
export type Config = v.InferOutput<typeof ConfigSchema>;

/** Thrown at start when a setting is invalid; the message names every bad variable. */
export class ConfigError extends Error {}

/**
 * Parses the settings from environment variables once, at start. Unknown variables are ignored;
 * a bad value stops the start with a message naming the variable and what it must be.
 */
export function parseConfig(env: Record<string, unknown>): Config {
  const strings: Record<string, string | undefined> = {};
  for (const key of Object.keys(ConfigSchema.entries)) {
    const value = env[key];
    strings[key] = value === undefined || value === null ? undefined : String(value);
  }
  const result = v.safeParse(ConfigSchema, strings);
  if (result.success) return result.output;
  const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? "settings"}: ${issue.message}`);
  throw new ConfigError(`Invalid settings:\n  ${problems.join("\n  ")}`);
}
