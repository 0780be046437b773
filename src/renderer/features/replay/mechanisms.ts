/** The mechanism labels live in src/shared, where the engine reads them too. */
export {
  harmfulMechanisms,
  helpfulMechanisms,
  mechanismName,
  mechanismsFor,
  overTrustSubModes,
  type FlipKind,
} from '../../../shared/mechanism-labels';
