// The demo tenant (src/demo.ts) as tests use it, read one way: seeded through the module graph that
// serves the test app, signed in as its administrator like any TestTenant, and the facts of its data
// that tests name (dealers, vehicles the demo book rates, the book itself) in one place.
import { seedDemoTenant, type DemoTenant } from '../src/demo.ts'
import { demoRateBook } from '../src/modules/rating/index.ts'
import { loginHeaders, type TestApp, type TestTenant } from './harness.ts'

/** What the demo data holds that tests rely on (src/modules/parties/demo.ts, the demo rate book). */
export const DEMO = {
  /** Lone Star Honda of Austin: a franchise dealer that sells from the demo book. */
  dealerNumber: '10001',
  /** Lone Star Toyota of Dallas: another dealer of the same group. */
  otherDealerNumber: '10002',
  vins: {
    /** A 2020 Honda Accord: the README's example quote. */
    accord: '1HGCV1F37LA012345',
    /** A 2019 Toyota Camry. */
    camry: '4T1B11HK8KU123456',
  },
  /** The README's example vehicle as rate-quote query parameters: a used 2020 Accord, 42,150 miles. */
  accordQuery: 'vin=1HGCV1F37LA012345&vehicleCondition=USED&odometer=42150&inServiceDate=2020-05-01',
  /** The demo rate book, in force from `effectiveDate`. */
  rateBook: demoRateBook,
} as const

export type DemoTestTenant = TestTenant & {
  /** The credentials seeding returned, as `npm start` prints them. */
  demo: DemoTenant
}

/** Seeds the demo tenant in `t`'s database (a new one per call) and signs its administrator in. */
export async function seedDemo(t: TestApp): Promise<DemoTestTenant> {
  const demo = await seedDemoTenant(t.modules, t.db)
  const admin = await t.db.read(demo.tenantId, (x) =>
    x
      .selectFrom('app_user')
      .select('id')
      .where('tenant_id', '=', demo.tenantId)
      .where('email_address_key', '=', demo.adminEmail.toLowerCase())
      .executeTakeFirstOrThrow(),
  )
  return {
    tenantId: demo.tenantId,
    apiKey: demo.apiKey,
    adminUserId: admin.id,
    adminEmail: demo.adminEmail,
    adminPassword: demo.adminPassword,
    headers: await loginHeaders(t, demo.apiKey, demo.adminEmail, demo.adminPassword),
    demo,
  }
}
