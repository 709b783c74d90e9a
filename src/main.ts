// Process entry (`npm start`). Node keeps the compiled code of the service's modules on disk between
// starts (its module compile cache, in the system's temporary directory), which saves about half a
// second of each start; the cache must be on before those modules load, hence the dynamic import.
import module from 'node:module'

module.enableCompileCache?.()
await import('./server.ts')
