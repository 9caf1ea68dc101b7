import { readFileSync, readdirSync } from 'node:fs';

/** The fields of a /proc stat file after the command name: [0] is field 3 (state) of proc(5). */
function statFields(file: string): string[] {
  const stat = readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Each thread of process `pid` ('self' for this one): its id, nice value and scheduling policy (0 normal, 3 batch, 5 idle). */
export function threadsOf(pid: number | 'self'): Array<{ tid: number; nice: number; policy: number }> {
  return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      const fields = statFields(`/proc/${pid}/task/${tid}/stat`);
      return [{ tid: Number(tid), nice: Number(fields[16]), policy: Number(fields[38]) }];
    } catch {
      return []; // ended between the listing and the read
    }
  });
}

/** The child processes of `parent` whose command line has `script`. */
export function childProcesses(parent: number, script: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((pid) => {
      try {
        return Number(statFields(`/proc/${pid}/stat`)[1]) === parent && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(script);
      } catch {
        return false; // gone between the listing and the read
      }
    });
}
