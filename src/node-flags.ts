/** The young-generation size (V8 semispace, MiB) a server process starts with; see `nodeFlags`. */
export const SEMI_SPACE_MIB = 64;

/**
 * The Node.js flags a server process starts with. The launcher (`bin/openbid`) asks for them
 * before Node starts, since V8 sizes its heap once, at start-up.
 *
 * A 64 MiB young generation (V8's default tops out at 8 MiB on 64-bit hosts, and starts smaller):
 * every request allocates its parsed body, answer and socket writes there, and each scavenge
 * walks what is still alive. An auction keeps its request, its bidders' answers and its bids
 * alive until it answers, and 64 auctions in flight at 5–20 imps hold more than a 16 MiB young
 * generation: each scavenge copied them and promoted them to the old generation. 64 MiB measured
 * −18 to −28% CPU per auction at 5–20 imps against 16 MiB (none at 1 imp), and no loss on the
 * cache side, whose scavenging less often had already measured +25% on `GET /cache` with Redis
 * and +7–10% on the memory store's `GET` and `POST /cache` over V8's default. It costs RSS: ~40
 * MiB more than 16 MiB did after 1 GiB written into a 64 MiB memory store (README, "Performance"
 * and "Operations").
 *
 * An operator's own `--max-semi-space-size` (or V8's `--max_semi_space_size`) in `NODE_OPTIONS`
 * wins: then nothing is added (a flag on the command line would override the environment's).
 */
export const nodeFlags = (nodeOptions = ''): string[] =>
  /(^|\s)--max[-_]semi[-_]space[-_]size[=\s]/.test(nodeOptions) ? [] : [`--max-semi-space-size=${SEMI_SPACE_MIB}`];
