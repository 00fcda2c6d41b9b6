export {
  DEFAULT_INJECTION_THRESHOLD,
  MAX_SIGNALS,
  SIGNAL_KINDS,
  WINDOW,
  detectInjection,
  type DetectOptions,
  type InjectionDetection,
  type InjectionSignal,
  type SignalKind,
} from './detect.js';
