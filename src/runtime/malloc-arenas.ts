/**
 * glibc's malloc gives threads that allocate at once arenas of their own, up to eight per core,
 * and memory freed stays in the arena it came from: with app threads, database threads and V8's
 * helpers each keeping freed memory in arenas of their own, the service's RSS grew under 1,000-interface
 * pages and GraphQL's 1.3 MB answers on the large set to a peak of 409-432 MB, against 379-403 MB
 * with two arenas (alternating runs, the same rate within the noise). Node has no `mallopt`, and
 * glibc reads MALLOC_ARENA_MAX only at the start of a process: so the process starts itself once
 * more with it set, in place (`execve`: the same pid, arguments, standard streams and signals).
 * Nothing is done where it is set already (eight times the cores is glibc's own limit), off Linux,
 * or where `process.execve` is missing (before Node 22.15); other C libraries ignore it.
 */
const ARENAS = "2";

export function limitMallocArenas(): void {
  if (process.platform !== "linux" || process.env.MALLOC_ARENA_MAX) return;
  const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
  if (typeof execve !== "function") return;
  execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    MALLOC_ARENA_MAX: ARENAS,
  });
}
