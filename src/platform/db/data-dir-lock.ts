// An embedded database has exactly one owner process. The owner holds DATA_DIR/owner.lock (its pid);
// anyone else refuses to open the directory while that process lives. A lock left by a dead
// process is taken over.
import fs from 'node:fs'
import path from 'node:path'

export class DataDirBusy extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function acquireDataDirLock(dataDir: string, role: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true })
  const lockPath = path.join(dataDir, 'owner.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid, role, since: new Date().toISOString() }), {
        flag: 'wx',
      })
      return () => {
        try {
          const held = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { pid: number }
          if (held.pid === process.pid) fs.unlinkSync(lockPath)
        } catch {
          // Already gone: nothing to release.
        }
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      let holder: { pid?: number; role?: string } = {}
      try {
        holder = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as { pid?: number; role?: string }
      } catch {
        // Unreadable lock: treat as stale.
      }
      if (holder.pid && holder.pid !== process.pid && alive(holder.pid)) {
        throw new DataDirBusy(
          `The embedded database in ${dataDir} is in use by process ${holder.pid} (${holder.role ?? 'unknown'}). ` +
            'Stop that process first, or point DATABASE_URL at PostgreSQL to share one database between processes.',
        )
      }
      fs.rmSync(lockPath, { force: true })
    }
  }
  throw new DataDirBusy(`Could not lock ${dataDir}`)
}
