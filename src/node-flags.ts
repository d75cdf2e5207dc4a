/** The young-generation size (V8 semispace, MiB) a server process starts with; see `nodeFlags`. */
export const SEMI_SPACE_MIB = 16;

/**
 * The Node.js flags a server process starts with. The launcher (`bin/openbid`) asks for them
 * before Node starts, since V8 sizes its heap once, at start-up.
 *
 * A 16 MiB young generation (V8's default tops out at 8 MiB on 64-bit hosts, and starts smaller):
 * every request allocates its parsed query, answer and socket writes there, and each scavenge
 * walks what is still alive. Scavenging less often measured +25% on `GET /cache` with Redis (whose
 * requests stay alive while they wait) and +7–10% on the memory store's `GET` and `POST /cache`;
 * it costs ~16 MiB of RSS (README, "Performance" and "Operations").
 *
 * An operator's own `--max-semi-space-size` (or V8's `--max_semi_space_size`) in `NODE_OPTIONS`
 * wins: then nothing is added (a flag on the command line would override the environment's).
 */
export const nodeFlags = (nodeOptions = ''): string[] =>
  /(^|\s)--max[-_]semi[-_]space[-_]size[=\s]/.test(nodeOptions) ? [] : [`--max-semi-space-size=${SEMI_SPACE_MIB}`];
