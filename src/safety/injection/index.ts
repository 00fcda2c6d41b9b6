export {
  CERTAIN,
  DEFAULT_INJECTION_THRESHOLD,
  MAX_SIGNALS,
  SIGNAL_KINDS,
  WINDOW_SIZES,
  detectInjection,
  type DetectOptions,
  type InjectionDetection,
  type InjectionSignal,
  type InjectionSpan,
  type SignalKind,
} from './detect.js';
