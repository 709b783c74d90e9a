// Demo data for the demo tenant: a realistic, fixed set of parties (dealer groups, dealers in six
// states with their agents, insurers, lien holders, repair facilities and the dealers they serve,
// an inspection company, claim payees). Names, addresses and tax ids are invented; phone numbers use
// the fictional 555-01xx range and email addresses the reserved .example domain. Created through the
// services, in one transaction, as the `demo-seed` actor.
import type { Clock } from '../../platform/clock.ts'
import type { Database } from '../../platform/db/database.ts'
import type { AccountHolderKind } from '../../platform/db/schema.ts'
import { systemContext } from '../../platform/http/context.ts'
import { KINDS } from './account-holder.kinds.ts'
import type { AccountHolderService } from './account-holder.service.ts'
import { createRepairFacilityLinkService } from './repair-facility-link.service.ts'

type Input = Record<string, unknown>
type Kind = keyof typeof KINDS

type Place = [line1: string, city: string, state: string, postalCode: string]

function contact(place: Place, phone: string, email: string, emailType = 'PRIMARY'): Input {
  const [line1, city, state, postalCode] = place
  return {
    addresses: [{ type: 'PHYSICAL', line1, city, state, postalCode }],
    phones: [{ type: 'OFFICE', number: phone }],
    emails: [{ type: emailType, address: email }],
  }
}

const DEALER_GROUPS: Input[] = [
  {
    groupCode: 'LONESTAR',
    legalName: 'Lone Star Automotive Group, Inc.',
    displayName: 'Lone Star Automotive',
    taxId: '75-2841106',
    w9OnFile: true,
    ...contact(
      ['1900 N Akard St, Suite 1200', 'Dallas', 'TX', '75201'],
      '(214) 555-0100',
      'accounting@lonestarauto.example',
      'BILLING',
    ),
  },
  {
    groupCode: 'SUNBELT',
    legalName: 'Sunbelt Auto Partners, LLC',
    displayName: 'Sunbelt Auto Partners',
    taxId: '58-3310927',
    w9OnFile: true,
    ...contact(
      ['3350 Peachtree Rd NE, Suite 800', 'Atlanta', 'GA', '30326'],
      '(404) 555-0100',
      'accounting@sunbeltauto.example',
      'BILLING',
    ),
  },
  {
    groupCode: 'DESERTSKY',
    legalName: 'Desert Sky Motor Group, LLC',
    displayName: 'Desert Sky Motor Group',
    taxId: '86-1047752',
    w9OnFile: true,
    ...contact(
      ['2 N Central Ave, Suite 1500', 'Phoenix', 'AZ', '85004'],
      '(602) 555-0100',
      'accounting@desertskymotors.example',
      'BILLING',
    ),
  },
]

const AGENTS: Input[] = [
  {
    agentCode: 'AG-RRV',
    legalName: 'Red River Warranty Agency LLC',
    displayName: 'Red River Agency',
    licenseNumber: 'OK-100238841',
    licensedStates: ['OK', 'TX'],
    taxId: '73-1592046',
    w9OnFile: true,
    ...contact(
      ['5400 N Grand Blvd, Suite 310', 'Oklahoma City', 'OK', '73112'],
      '(405) 555-0110',
      'office@redriveragency.example',
    ),
  },
  {
    agentCode: 'AG-GLF',
    legalName: 'Gulf Coast Agency Group LLC',
    displayName: 'Gulf Coast Agency',
    licenseNumber: 'TX-2207815',
    licensedStates: ['TX', 'FL'],
    taxId: '76-0668413',
    w9OnFile: true,
    ...contact(
      ['1001 Fannin St, Suite 2050', 'Houston', 'TX', '77002'],
      '(713) 555-0110',
      'office@gulfcoastagency.example',
    ),
  },
  {
    agentCode: 'AG-PCH',
    legalName: 'Peachtree F&I Marketing, Inc.',
    displayName: 'Peachtree F&I',
    licenseNumber: 'GA-875412',
    licensedStates: ['GA', 'FL'],
    taxId: '58-2217390',
    w9OnFile: true,
    ...contact(
      ['11175 Cicero Dr, Suite 100', 'Alpharetta', 'GA', '30022'],
      '(770) 555-0110',
      'office@peachtreefi.example',
    ),
  },
  {
    agentCode: 'AG-PAC',
    legalName: 'Pacific Coast Dealer Services, Inc.',
    displayName: 'Pacific Coast Dealer Services',
    licenseNumber: 'CA-0K77214',
    licensedStates: ['CA', 'AZ'],
    taxId: '33-0917264',
    w9OnFile: true,
    ...contact(
      ['17875 Von Karman Ave, Suite 150', 'Irvine', 'CA', '92614'],
      '(949) 555-0110',
      'office@pacificcoastds.example',
    ),
  },
]

type DemoDealer = {
  number: string
  legalName: string
  displayName: string
  type: 'FRANCHISE' | 'INDEPENDENT' | 'BUY_HERE_PAY_HERE' | 'RV_MARINE' | 'POWERSPORTS'
  makes: string[]
  group: string | null
  agents: string[]
  place: Place
  phone: string
  license: string
  taxId: string
}

const d = (
  number: string,
  legalName: string,
  displayName: string,
  type: DemoDealer['type'],
  makes: string[],
  group: string | null,
  agents: string[],
  place: Place,
  phone: string,
  license: string,
  taxId: string,
): DemoDealer => ({ number, legalName, displayName, type, makes, group, agents, place, phone, license, taxId })

const DEALERS: DemoDealer[] = [
  d(
    '10001',
    'Lone Star Honda of Austin LLC',
    'Lone Star Honda',
    'FRANCHISE',
    ['HONDA'],
    'LONESTAR',
    ['AG-RRV'],
    ['9400 N Interstate 35', 'Austin', 'TX', '78753'],
    '(512) 555-0121',
    'P104233',
    '74-3012841',
  ),
  d(
    '10002',
    'LS Toyota Dallas LP',
    'Lone Star Toyota of Dallas',
    'FRANCHISE',
    ['TOYOTA'],
    'LONESTAR',
    ['AG-RRV'],
    ['9010 N Central Expy', 'Dallas', 'TX', '75231'],
    '(214) 555-0122',
    'P104871',
    '75-3126607',
  ),
  d(
    '10003',
    'Lone Star Ford Fort Worth LLC',
    'Lone Star Ford',
    'FRANCHISE',
    ['FORD', 'LINCOLN'],
    'LONESTAR',
    ['AG-RRV'],
    ['4801 Southwest Blvd', 'Fort Worth', 'TX', '76116'],
    '(817) 555-0123',
    'P102519',
    '75-2984410',
  ),
  d(
    '10004',
    'Bayou City Chevrolet, Ltd.',
    'Bayou City Chevrolet',
    'FRANCHISE',
    ['CHEVROLET', 'BUICK', 'GMC'],
    null,
    ['AG-GLF'],
    ['8800 Gulf Fwy', 'Houston', 'TX', '77017'],
    '(713) 555-0124',
    'P100974',
    '76-0442159',
  ),
  d(
    '10005',
    'Alamo Pre-Owned Superstore, Inc.',
    'Alamo Pre-Owned',
    'INDEPENDENT',
    [],
    null,
    ['AG-GLF'],
    ['12730 IH-10 W', 'San Antonio', 'TX', '78230'],
    '(210) 555-0125',
    'P107720',
    '74-2870035',
  ),
  d(
    '10006',
    'Hill Country RV & Marine LLC',
    'Hill Country RV & Marine',
    'RV_MARINE',
    ['WINNEBAGO', 'SEA RAY'],
    null,
    ['AG-GLF'],
    ['1855 IH-35 S', 'New Braunfels', 'TX', '78130'],
    '(830) 555-0126',
    'P109341',
    '74-3355012',
  ),
  d(
    '10007',
    'Red Dirt Nissan, LLC',
    'Red Dirt Nissan',
    'FRANCHISE',
    ['NISSAN'],
    'LONESTAR',
    ['AG-RRV'],
    ['7100 NW Expressway', 'Oklahoma City', 'OK', '73132'],
    '(405) 555-0127',
    'OK-D-20418',
    '73-1688204',
  ),
  d(
    '10008',
    'Green Country Hyundai, Inc.',
    'Green Country Hyundai',
    'FRANCHISE',
    ['HYUNDAI', 'GENESIS'],
    'LONESTAR',
    ['AG-RRV'],
    ['9310 S Memorial Dr', 'Tulsa', 'OK', '74133'],
    '(918) 555-0128',
    'OK-D-19877',
    '73-1540392',
  ),
  d(
    '10009',
    'Sooner Auto Credit LLC',
    'Sooner Auto Credit',
    'BUY_HERE_PAY_HERE',
    [],
    null,
    ['AG-RRV'],
    ['1420 W Lindsey St', 'Norman', 'OK', '73069'],
    '(405) 555-0129',
    'OK-U-31102',
    '73-1722956',
  ),
  d(
    '10010',
    'Sunbelt Kia of Orlando, LLC',
    'Sunbelt Kia Orlando',
    'FRANCHISE',
    ['KIA'],
    'SUNBELT',
    ['AG-PCH', 'AG-GLF'],
    ['4201 S Orange Blossom Trl', 'Orlando', 'FL', '32839'],
    '(407) 555-0130',
    'VF-1038821',
    '59-3617220',
  ),
  d(
    '10011',
    'Sunbelt Subaru Tampa, LLC',
    'Sunbelt Subaru Tampa',
    'FRANCHISE',
    ['SUBARU'],
    'SUNBELT',
    ['AG-PCH'],
    ['10010 N Dale Mabry Hwy', 'Tampa', 'FL', '33618'],
    '(813) 555-0131',
    'VF-1041907',
    '59-3702114',
  ),
  d(
    '10012',
    'Gulf Breeze Powersports, Inc.',
    'Gulf Breeze Powersports',
    'POWERSPORTS',
    ['YAMAHA', 'KAWASAKI', 'POLARIS'],
    null,
    ['AG-GLF'],
    ['6700 N Davis Hwy', 'Pensacola', 'FL', '32504'],
    '(850) 555-0132',
    'VF-1029564',
    '59-2981436',
  ),
  d(
    '10013',
    'Coastal Jeep of Jacksonville, LLC',
    'Coastal Jeep Jacksonville',
    'FRANCHISE',
    ['JEEP', 'RAM', 'DODGE', 'CHRYSLER'],
    'SUNBELT',
    ['AG-PCH'],
    ['10980 Atlantic Blvd', 'Jacksonville', 'FL', '32225'],
    '(904) 555-0133',
    'VF-1035310',
    '59-3488071',
  ),
  d(
    '10014',
    'Sunbelt Volkswagen Atlanta, LLC',
    'Sunbelt VW Atlanta',
    'FRANCHISE',
    ['VOLKSWAGEN'],
    'SUNBELT',
    ['AG-PCH'],
    ['5515 Peachtree Industrial Blvd', 'Chamblee', 'GA', '30341'],
    '(770) 555-0134',
    'GA-DLR-44821',
    '58-2640583',
  ),
  d(
    '10015',
    'Peach State Mazda, Inc.',
    'Peach State Mazda',
    'FRANCHISE',
    ['MAZDA'],
    null,
    ['AG-PCH'],
    ['3990 Riverside Dr', 'Macon', 'GA', '31210'],
    '(478) 555-0135',
    'GA-DLR-39276',
    '58-2519947',
  ),
  d(
    '10016',
    'Savannah Motor Cars LLC',
    'Savannah Motor Cars',
    'INDEPENDENT',
    [],
    null,
    ['AG-PCH'],
    ['7805 Abercorn St', 'Savannah', 'GA', '31406'],
    '(912) 555-0136',
    'GA-DLR-51130',
    '58-2775306',
  ),
  d(
    '10017',
    'Desert Sky Chevrolet, LLC',
    'Desert Sky Chevrolet',
    'FRANCHISE',
    ['CHEVROLET'],
    'DESERTSKY',
    ['AG-PAC'],
    ['1500 W Main St', 'Mesa', 'AZ', '85201'],
    '(480) 555-0137',
    'L00012874',
    '86-1102347',
  ),
  d(
    '10018',
    'Desert Sky Toyota Tucson, LLC',
    'Desert Sky Toyota',
    'FRANCHISE',
    ['TOYOTA'],
    'DESERTSKY',
    ['AG-PAC'],
    ['4220 E 22nd St', 'Tucson', 'AZ', '85711'],
    '(520) 555-0138',
    'L00013301',
    '86-1139058',
  ),
  d(
    '10019',
    'Desert Sky Honda Riverside, Inc.',
    'Desert Sky Honda Riverside',
    'FRANCHISE',
    ['HONDA'],
    'DESERTSKY',
    ['AG-PAC'],
    ['8330 Indiana Ave', 'Riverside', 'CA', '92504'],
    '(951) 555-0139',
    'CA-72218',
    '33-1204865',
  ),
  d(
    '10020',
    'Golden State Auto Outlet, Inc.',
    'Golden State Auto Outlet',
    'INDEPENDENT',
    [],
    null,
    ['AG-PAC'],
    ['2525 Fulton Ave', 'Sacramento', 'CA', '95821'],
    '(916) 555-0140',
    'CA-81437',
    '68-0492716',
  ),
]

const INSURERS: Input[] = [
  {
    insurerCode: 'INS-FCI',
    legalName: 'Frontier Casualty Insurance Company',
    displayName: 'Frontier Casualty',
    naicCode: '31247',
    amBestRating: 'A-',
    taxId: '75-1187324',
    w9OnFile: true,
    ...contact(
      ['2200 Ross Ave, Suite 3600', 'Dallas', 'TX', '75201'],
      '(214) 555-0150',
      'reinsurance@frontiercasualty.example',
    ),
  },
  {
    insurerCode: 'INS-GPI',
    legalName: 'Great Plains Indemnity Company',
    displayName: 'Great Plains Indemnity',
    naicCode: '20618',
    amBestRating: 'A',
    taxId: '47-0698125',
    w9OnFile: true,
    ...contact(
      ['1299 Farnam St, Suite 900', 'Omaha', 'NE', '68102'],
      '(402) 555-0150',
      'programs@greatplainsindemnity.example',
    ),
  },
]

const LIEN_HOLDERS: Input[] = [
  {
    lienHolderCode: 'FPNB',
    legalName: 'First Prairie National Bank',
    displayName: 'First Prairie Bank',
    eltNumber: 'E7MK2',
    payoffPhone: '(316) 555-0161',
    ...contact(['100 N Main St', 'Wichita', 'KS', '67202'], '(316) 555-0160', 'dealerservices@firstprairie.example'),
  },
  {
    lienHolderCode: 'CCB',
    legalName: 'Coastal Commerce Bank, N.A.',
    displayName: 'Coastal Commerce Bank',
    eltNumber: 'E4CCB',
    payoffPhone: '(813) 555-0163',
    ...contact(['400 N Ashley Dr', 'Tampa', 'FL', '33602'], '(813) 555-0162', 'autoloans@coastalcommerce.example'),
  },
  {
    lienHolderCode: 'BBCU',
    legalName: 'Bluebonnet Community Credit Union',
    displayName: 'Bluebonnet CU',
    eltNumber: 'E9BCU',
    payoffPhone: '(512) 555-0165',
    ...contact(['6100 E Riverside Dr', 'Austin', 'TX', '78741'], '(512) 555-0164', 'lending@bluebonnetcu.example'),
  },
  {
    lienHolderCode: 'NSMAC',
    legalName: 'Northstar Motor Acceptance Corporation',
    displayName: 'Northstar Motor Acceptance',
    eltNumber: 'E2NMA',
    payoffPhone: '(972) 555-0167',
    ...contact(['6565 Headquarters Dr', 'Plano', 'TX', '75024'], '(972) 555-0166', 'payoffs@northstarmac.example'),
  },
]

type DemoFacility = { input: Input; dealerGroups: string[]; dealers: string[] }

const REPAIR_FACILITIES: DemoFacility[] = [
  {
    input: {
      facilityCode: 'RF-ATX',
      legalName: 'Precision Auto Repair of Austin LLC',
      displayName: 'Precision Auto Repair',
      facilityType: 'INDEPENDENT',
      laborRate: 145,
      aseCertified: true,
      taxId: '74-2990183',
      w9OnFile: true,
      ...contact(
        ['4410 Burnet Rd', 'Austin', 'TX', '78756'],
        '(512) 555-0170',
        'service@precisionatx.example',
        'CLAIMS',
      ),
    },
    dealerGroups: ['LONESTAR'],
    dealers: ['10005', '10006'],
  },
  {
    input: {
      facilityCode: 'RF-ATL',
      legalName: 'Peachtree Transmission & Auto Care, Inc.',
      displayName: 'Peachtree Auto Care',
      facilityType: 'INDEPENDENT',
      laborRate: 138,
      aseCertified: true,
      taxId: '58-2451170',
      w9OnFile: true,
      ...contact(
        ['2145 Cheshire Bridge Rd NE', 'Atlanta', 'GA', '30324'],
        '(404) 555-0171',
        'claims@peachtreeautocare.example',
        'CLAIMS',
      ),
    },
    dealerGroups: ['SUNBELT'],
    dealers: ['10015', '10016'],
  },
  {
    input: {
      facilityCode: 'RF-PHX',
      legalName: 'Valley Fleet & Diesel Service LLC',
      displayName: 'Valley Fleet & Diesel',
      facilityType: 'FLEET',
      laborRate: 155,
      aseCertified: true,
      taxId: '86-1071294',
      w9OnFile: true,
      ...contact(
        ['2802 W Buckeye Rd', 'Phoenix', 'AZ', '85009'],
        '(602) 555-0172',
        'service@valleyfleet.example',
        'CLAIMS',
      ),
    },
    // 10017 is linked directly as well as through its group: repairfacilityofdealer shows it as DEALER.
    dealerGroups: ['DESERTSKY'],
    dealers: ['10017'],
  },
]

const INSPECTION_COMPANIES: Input[] = [
  {
    companyCode: 'NVIS',
    legalName: 'National Vehicle Inspection Services, Inc.',
    displayName: 'NVIS',
    serviceStates: ['TX', 'OK', 'FL', 'GA', 'AZ', 'CA'],
    inspectionFee: 95,
    taxId: '75-2603318',
    w9OnFile: true,
    ...contact(['1320 Greenway Dr, Suite 400', 'Irving', 'TX', '75038'], '(972) 555-0180', 'dispatch@nvis.example'),
  },
]

/** A dealer-owned reinsurance company (docs/reporting.md): the Lone Star group's. */
const REINSURANCE_COMPANIES: Input[] = [
  {
    companyCode: 'LSRE',
    legalName: 'Lone Star Dealer Reinsurance, Ltd.',
    displayName: 'Lone Star Re',
    domicile: 'Turks and Caicos Islands',
    taxId: '98-0561274',
    w9OnFile: true,
    ...contact(['2100 Ross Ave, Suite 1200', 'Dallas', 'TX', '75201'], '(214) 555-0190', 'treaty@lonestarre.example'),
  },
]

/** Counts of what seedDemoParties creates, by kind (the administrator company exists already). */
export const DEMO_COUNTS: Partial<Record<AccountHolderKind, number>> = {
  DEALER_GROUP: DEALER_GROUPS.length,
  AGENT: AGENTS.length,
  DEALER: DEALERS.length,
  INSURER: INSURERS.length,
  LIEN_HOLDER: LIEN_HOLDERS.length,
  REPAIR_FACILITY: REPAIR_FACILITIES.length,
  INSPECTION_COMPANY: INSPECTION_COMPANIES.length,
  CLAIM_PAYEE: 2,
  REINSURANCE_COMPANY: REINSURANCE_COMPANIES.length,
}

export async function seedDemoParties(
  deps: { db: Database; clock: Clock },
  service: AccountHolderService,
  tenantId: number,
): Promise<void> {
  const ctx = systemContext(tenantId, 'demo-seed')
  const links = createRepairFacilityLinkService(deps)
  const create = async (kind: Kind, input: Input) => (await service.create(ctx, KINDS[kind], input)).id
  const createAll = async (kind: Kind, inputs: Input[], key: string) => {
    const ids = new Map<string, number>()
    for (const input of inputs) ids.set(String(input[key]), await create(kind, input))
    return ids
  }
  const idOf = (ids: Map<string, number>, key: string) => {
    const id = ids.get(key)
    if (id === undefined) throw new Error(`demo data refers to unknown ${key}`)
    return id
  }

  await deps.db.transaction(tenantId, async () => {
    const groups = await createAll('DEALER_GROUP', DEALER_GROUPS, 'groupCode')
    const agents = await createAll('AGENT', AGENTS, 'agentCode')
    const dealers = new Map<string, number>()
    for (const x of DEALERS) {
      const email = `fi@${x.displayName.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`
      dealers.set(
        x.number,
        await create('DEALER', {
          dealerNumber: x.number,
          legalName: x.legalName,
          displayName: x.displayName,
          dealerType: x.type,
          ...(x.makes.length > 0 ? { franchiseMakes: x.makes } : {}),
          licenseNumber: x.license,
          taxId: x.taxId,
          w9OnFile: true,
          dealerGroupId: x.group === null ? null : idOf(groups, x.group),
          agentIds: x.agents.map((a) => idOf(agents, a)),
          ...contact(x.place, x.phone, email, 'CONTRACTS'),
        }),
      )
    }
    await createAll('INSURER', INSURERS, 'insurerCode')
    await createAll('LIEN_HOLDER', LIEN_HOLDERS, 'lienHolderCode')
    const facilities = new Map<string, number>()
    for (const f of REPAIR_FACILITIES) {
      const id = await create('REPAIR_FACILITY', f.input)
      facilities.set(String(f.input.facilityCode), id)
      await links.change(ctx, id, 'DEALER_GROUP', { add: f.dealerGroups.map((g) => idOf(groups, g)) })
      await links.change(ctx, id, 'DEALER', { add: f.dealers.map((n) => idOf(dealers, n)) })
    }
    await createAll('INSPECTION_COMPANY', INSPECTION_COMPANIES, 'companyCode')
    await createAll('REINSURANCE_COMPANY', REINSURANCE_COMPANIES, 'companyCode')
    await create('CLAIM_PAYEE', {
      payeeCode: 'PAY-PAR',
      legalName: 'Precision Auto Repair of Austin LLC',
      displayName: 'Precision Auto Repair',
      payeeType: 'REPAIR_FACILITY',
      relatedAccountHolderId: idOf(facilities, 'RF-ATX'),
      taxId: '74-2990183',
      w9OnFile: true,
      ...contact(
        ['4410 Burnet Rd', 'Austin', 'TX', '78756'],
        '(512) 555-0170',
        'billing@precisionatx.example',
        'BILLING',
      ),
    })
    await create('CLAIM_PAYEE', {
      payeeCode: 'PAY-RRT',
      legalName: 'Roadrunner Towing & Recovery LLC',
      displayName: 'Roadrunner Towing',
      payeeType: 'TOWING',
      taxId: '74-3170452',
      w9OnFile: true,
      ...contact(
        ['3301 E Houston St', 'San Antonio', 'TX', '78219'],
        '(210) 555-0190',
        'billing@roadrunnertow.example',
        'BILLING',
      ),
    })
  })
}
