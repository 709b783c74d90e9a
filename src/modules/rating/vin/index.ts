// VIN validation and offline decoding from vPIC (docs/vin.md). The rest of rating reaches it only
// through this file.
export {
  decodeVin,
  InvalidVinError,
  validateVin,
  type DecodedVin,
  type ModelYearBasis,
  type VinProblem,
} from './vin.rules.ts'
export {
  createVinDecoder,
  type VehicleDecodedVin,
  type VinDecoder,
  type VinDecoderOptions,
  type VinDecoderStats,
  type VinVehicle,
} from './vin.decoder.ts'
export type { VinDataSource } from './vin.data.ts'
