import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import process from "node:process";

/**
 * Who a Node or Deno process claims webhook deliveries as: `host pid token`, the token new at each
 * start. Recorded on every claim, so that at the next start the process can tell which claims
 * were left by a process that is gone (taken back at once) from those of a live one sharing the
 * database (left alone until their leases run out).
 */
export function processClaimer(): string {
  return `${hostname()} ${process.pid} ${randomUUID()}`;
}

/**
 * Whether the claimer is a process that no longer runs. Only a claimer on this host can be
 * checked: one with this process's pid but another token is an earlier run (a container restarts
 * as the same pid), and any other pid is dead when signalling it finds no process. Anything else
 * (another host, a live pid, a pid reused by another program, a pid Deno may not signal without
 * --allow-run, a Workers claim) counts as alive:
 * its lease still ends it, as before. Hosts sharing a name but not a pid namespace would look
 * dead to each other; at worst a run is sent twice, with the same `webhook-id`.
 */
export function claimerIsDead(claimer: string, own: string): boolean {
  const [host, pid] = claimer.split(" ");
  const [ownHost] = own.split(" ");
  if (claimer === own || host !== ownHost || !/^\d+$/.test(pid ?? "")) return false;
  if (Number(pid) === process.pid) return true;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    // ESRCH: no such process. EPERM: one runs, of another user. Deno without --allow-run may not
    // signal at all (nor read /proc): the claim then waits for its lease, as any live one does.
    return (error as { code?: string }).code === "ESRCH";
  }
}
