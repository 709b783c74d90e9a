// The read-only rating catalogue (docs/rate-catalogue.md), answered from a compiled rate book.
export { catalogueRoutes } from './catalogue.routes.ts'
export { cancelCatalogueRoutes } from './cancel-catalogue.routes.ts'
