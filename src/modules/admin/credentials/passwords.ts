import { refuse } from "../../../domain/errors.ts";
import { Gate } from "../../../platform/gate.ts";
import { addressBucket } from "../../../platform/http/rate-limit.ts";

/** A verified Basic password is trusted this long before argon2id runs again. */
const TRUSTED_MS = 60_000;
/**
 * Past this age a verified password is checked again in the background while requests go on
 * being served from the cache: a terminal that sends steadily never waits for argon2id.
 */
const REFRESH_AFTER_MS = 45_000;
/** Verified pairs kept; past it the oldest goes first. */
const MAX_REMEMBERED = 10_000;
/**
 * argon2id checks at once. Each holds 64 MiB and a core for a few hundred ms: a burst of Basic
 * requests (a spray over changing user names, or every terminal after a restart) queues instead.
 */
const CHECKS_AT_ONCE = 2;
/**
 * Checks that may wait for a turn, one per client address. Past it a new check is refused at once
 * (503 password-checks-busy) rather than queued, unless its address has failed fewer checks
 * lately than the heaviest address waiting, whose check it replaces (Gate): a spray over
 * changing user names, from one address or many, never makes a real user's sign-in wait behind
 * its guesses.
 * Eight waiting is about a second of argon2id work at two at once.
 */
export const CHECKS_WAITING = 8;
/** Whole seconds a refused check is told to wait before trying again. */
const BUSY_RETRY_SECONDS = 1;

const passwordChecksBusy = () =>
  refuse(
    "password-checks-busy",
    `${CHECKS_WAITING} password checks are waiting; try again in ${BUSY_RETRY_SECONDS} s`,
    { retryAfterSeconds: BUSY_RETRY_SECONDS },
  );

export type PasswordAnswer = "valid" | "invalid" | "unknown-pair";

/**
 * Basic passwords: argon2id checks, at most two at once and eight waiting, fair between client
 * addresses (the Gate), one per name and password at a time (concurrent requests with the same
 * pair wait for the check in flight), and the pairs verified in this process remembered (by a
 * SHA-256 of name and password, with the hash they matched). A remembered pair never waits in
 * the queue.
 */
export class PasswordChecks {
  private readonly verified = new Map<string, { passwordHash: string; at: number }>();
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly gate: Gate;

  constructor(private readonly now: () => number) {
    this.gate = new Gate(CHECKS_AT_ONCE, CHECKS_WAITING, passwordChecksBusy, { now });
  }

  /**
   * Whether `password` matches `passwordHash` for the pair `key`, asked from `client` (its
   * address: what the queue is fair between). `knownOnly`: answer only from what was verified
   * before ("unknown-pair" otherwise), spending no argon2id work. Throws password-checks-busy
   * (503) when the check would have to wait behind too many others.
   */
  async check(
    key: string,
    password: string,
    passwordHash: string,
    client: string,
    knownOnly = false,
  ): Promise<PasswordAnswer> {
    const now = this.now();
    const seen = this.verified.get(key);
    const known = seen !== undefined && seen.passwordHash === passwordHash;
    // A full queue also serves a remembered pair past its time: the stored hash is the one it
    // matched, so checking again could only say the same, and a terminal must not be turned away
    // because others are guessing.
    if (known && (now - seen.at < TRUSTED_MS || this.gate.full)) {
      // Refreshed off the request's path before it lapses; a failed refresh forgets the pair.
      if (now - seen.at >= REFRESH_AFTER_MS && !this.gate.full)
        this.verify(key, password, passwordHash, client).catch(() => this.verified.delete(key));
      return "valid";
    }
    if (knownOnly && !known) return "unknown-pair";
    return (await this.verify(key, password, passwordHash, client)) ? "valid" : "invalid";
  }

  /** The same argon2id work as a real check, for a user name that does not exist. */
  async waste(key: string, password: string, dummyHash: string, client: string): Promise<void> {
    this.verified.delete(key);
    await this.single(`unknown ${key}`, client, async () => {
      await Bun.password.verify(password, dummyHash);
      // A name that does not exist is a failure like a wrong password: its address weighs more.
      this.gate.charge(partyOf(client));
      return false;
    });
  }

  private verify(key: string, password: string, passwordHash: string, client: string): Promise<boolean> {
    return this.single(key, client, async () => {
      const ok = await Bun.password.verify(password, passwordHash);
      if (!ok) this.gate.charge(partyOf(client));
      this.verified.delete(key);
      if (ok) {
        if (this.verified.size >= MAX_REMEMBERED) this.verified.delete(this.verified.keys().next().value!);
        this.verified.set(key, { passwordHash, at: this.now() });
      }
      return ok;
    });
  }

  /**
   * One check per key at a time: a second caller waits for the first's answer. A new check the
   * queue refuses costs nothing, so an unknown name is refused as fast.
   */
  private single(key: string, client: string, check: () => Promise<boolean>): Promise<boolean> {
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.gate.run(partyOf(client), check).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }
}

/**
 * What the queue is fair between: the client's address, an IPv6 one as its /64 (one host may use
 * any address of its prefix, and would otherwise be a new party at will).
 */
const partyOf = (client: string) => addressBucket(client);

/** A hash to check against when the user does not exist, so that the answer takes as long. */
let dummy: Promise<string> | undefined;
export function dummyHash(): Promise<string> {
  // Made once per process, on first need, with the same parameters as every user's hash.
  dummy ??= Bun.password.hash(crypto.randomUUID(), { algorithm: "argon2id" });
  return dummy;
}
