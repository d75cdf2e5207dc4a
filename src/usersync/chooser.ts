import type { SyncType, Syncer, SyncerRegistry } from './syncers.js';

/**
 * Which bidders `/cookie_sync` offers syncs for, by Prebid Server's chooser: the bidders in a
 * (shuffled) order, each evaluated once until `limit` syncs are chosen. Pure: the random source
 * and every privacy answer are passed in.
 */

/** Who may sync in which way: `filterSettings` of the request. */
export interface BidderFilter {
  allowed(bidder: string): boolean;
}

/** `include`/`exclude` of every bidder (`"*"`) or of the listed ones (compared in lower case). */
export const bidderFilter = (mode: 'include' | 'exclude', bidders: '*' | readonly string[]): BidderFilter => {
  if (bidders === '*') return { allowed: () => mode === 'include' };
  const listed = new Set(bidders.map((b) => b.toLowerCase()));
  return { allowed: (bidder) => listed.has(bidder) === (mode === 'include') };
};

export const ALLOW_ALL_FILTER: BidderFilter = bidderFilter('include', '*');

export interface SyncTypeFilter {
  readonly iframe: BidderFilter;
  readonly redirect: BidderFilter;
}

/** The sync types a bidder may use, iframe first (Prebid Server's `ForBidder`). */
export const syncTypesFor = (filter: SyncTypeFilter, bidder: string): SyncType[] => {
  const types: SyncType[] = [];
  if (filter.iframe.allowed(bidder)) types.push('iframe');
  if (filter.redirect.allowed(bidder)) types.push('redirect');
  return types;
};

/** Shuffles in place (Fisher–Yates) with `random` in [0, 1). */
export const shuffle = <T>(items: T[], random: () => number): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.min(i, Math.floor(random() * (i + 1)));
    const t = items[i]!;
    items[i] = items[j]!;
    items[j] = t;
  }
  return items;
};

export interface Cooperative {
  readonly enabled: boolean;
  readonly priorityGroups: readonly (readonly string[])[];
}

/**
 * The bidders to consider, in order (duplicates possible, resolved by the chooser). Without
 * cooperative sync: the requested ones shuffled, or every bidder with a syncer when none are
 * requested. With it: the requested, then each priority group, then every bidder, each part
 * shuffled on its own.
 */
export const orderBidders = (requested: readonly string[], available: readonly string[], coop: Cooperative, random: () => number): string[] => {
  if (!coop.enabled) return shuffle([...(requested.length === 0 ? available : requested)], random);
  const out = shuffle([...requested], random);
  for (const group of coop.priorityGroups) out.push(...shuffle([...group], random));
  out.push(...shuffle([...available], random));
  return out;
};

/** Why a bidder was not offered a sync, as Prebid Server's debug messages say it. */
export type SyncStatus = 'ok' | 'already-synced' | 'unknown-bidder' | 'unconfigured-bidder' | 'rejected-by-filter' | 'duplicate' | 'blocked-by-privacy';

export const DEBUG_MESSAGE: Readonly<Record<Exclude<SyncStatus, 'ok'>, string>> = {
  'already-synced': 'Already in sync',
  'unknown-bidder': 'Unsupported bidder',
  'unconfigured-bidder': 'No sync config',
  'rejected-by-filter': 'Rejected by request filter',
  duplicate: 'Duplicate bidder',
  'blocked-by-privacy': 'Rejected by privacy',
};

export interface BidderEvaluation {
  readonly bidder: string;
  readonly family?: string;
  readonly status: SyncStatus;
}

/** The per-bidder privacy answers of one request. */
export interface BidderSyncPrivacy {
  /** The `syncUser` activity allows this bidder. */
  activityAllows(bidder: string): boolean;
  /** GDPR (TCF purpose 1 for its vendor) and US opt-out allow this bidder's sync. */
  regulationsAllow(bidder: string): boolean;
}

export interface ChooseInput {
  readonly bidders: readonly string[];
  readonly cooperative: Cooperative;
  /** At most this many syncs; 0 or less: no limit. */
  readonly limit: number;
  readonly filter: SyncTypeFilter;
  readonly registry: SyncerRegistry;
  /** Whether a code is a bidder of this server (with or without a syncer). */
  readonly isKnownBidder: (code: string) => boolean;
  /** Whether the user's cookie holds a live id of the family. */
  readonly hasLiveSync: (family: string) => boolean;
  readonly privacy: BidderSyncPrivacy;
  readonly random: () => number;
}

export interface ChooseResult {
  readonly evaluated: readonly BidderEvaluation[];
  readonly chosen: readonly { readonly bidder: string; readonly syncer: Syncer }[];
}

/** Prebid Server's `Choose` for a user who may sync: each bidder evaluated once, in order, until the limit. */
export const chooseSyncers = (input: ChooseInput): ChooseResult => {
  const familiesSeen = new Set<string>();
  const biddersSeen = new Set<string>();
  const evaluated: BidderEvaluation[] = [];
  const chosen: { bidder: string; syncer: Syncer }[] = [];
  const order = orderBidders(input.bidders, input.registry.biddersWithSyncers(), input.cooperative, input.random);
  const unlimited = input.limit <= 0;
  for (const bidder of order) {
    if (!unlimited && chosen.length >= input.limit) break;
    if (biddersSeen.has(bidder)) continue;
    biddersSeen.add(bidder);
    const e = evaluate(bidder, input, familiesSeen);
    evaluated.push(e.evaluation);
    if (e.syncer !== undefined) chosen.push({ bidder, syncer: e.syncer });
  }
  return { evaluated, chosen };
};

const evaluate = (bidder: string, input: ChooseInput, familiesSeen: Set<string>): { evaluation: BidderEvaluation; syncer?: Syncer } => {
  const syncer = input.registry.forBidder(bidder);
  if (syncer === undefined) return { evaluation: { bidder, status: input.isKnownBidder(bidder) ? 'unconfigured-bidder' : 'unknown-bidder' } };
  const family = syncer.family;
  const done = (status: SyncStatus): { evaluation: BidderEvaluation } => ({ evaluation: { bidder, family, status } });
  if (familiesSeen.has(family)) return done('duplicate');
  familiesSeen.add(family);
  if (!syncer.supports(syncTypesFor(input.filter, bidder.toLowerCase()))) return done('rejected-by-filter');
  if (input.hasLiveSync(family)) return done('already-synced');
  if (!input.privacy.activityAllows(bidder)) return done('blocked-by-privacy');
  if (!input.privacy.regulationsAllow(bidder)) return done('blocked-by-privacy');
  return { evaluation: { bidder, family, status: 'ok' }, syncer };
};
