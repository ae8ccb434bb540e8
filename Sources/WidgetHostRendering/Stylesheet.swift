/// The CSS every rendered widget relies on: once per page, whatever the number of widgets.
/// Sizes and colours are in the fragments; this sheet only says how boxes lay out, as
/// SwiftUI's stacks, spacers and frames do, and how redacted content looks.
public enum Stylesheet {
    public static let css = """
.wh-widget{position:relative;box-sizing:border-box;overflow:hidden;flex:none;font-family:\(Typography.defaultFamily);font-size:17px;line-height:1.2;-webkit-font-smoothing:antialiased;text-align:left}
.wh-widget *{box-sizing:border-box}
.wh-accessory{background:transparent;color:#fff}
.wh-accessoryCircular{border-radius:50%}
.wh-container-background{position:absolute;inset:0;display:flex;flex-direction:column}
.wh-content{position:absolute;inset:0;display:flex;flex-direction:column;align-items:center;justify-content:center}
.wh-inline{flex-direction:row;white-space:nowrap;overflow:hidden;justify-content:flex-start}
.wh-inline .wh-text{-webkit-line-clamp:1;white-space:nowrap;text-overflow:ellipsis}
.wh-vstack{display:flex;flex-direction:column;max-width:100%;max-height:100%}
.wh-hstack{display:flex;flex-direction:row;max-width:100%;max-height:100%}
.wh-zstack,.wh-layers{display:grid;grid-template:1fr/1fr;max-width:100%;max-height:100%}
.wh-layer{grid-area:1/1;display:flex;flex-direction:column;align-items:center;justify-content:center;min-width:0;min-height:0}
.wh-m{display:flex;flex-direction:column;align-items:center;justify-content:center;max-width:100%;max-height:100%}
.wh-c{display:contents}
.wh-text{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:var(--wh-lines,9999);overflow:hidden;overflow-wrap:anywhere;max-width:100%}
.wh-text svg{vertical-align:-0.12em}
.wh-spacer{flex:1 1 0}
.wh-divider{height:0.5px;min-height:0.5px;align-self:stretch}
.wh-divider-v{width:0.5px;min-width:0.5px;align-self:stretch}
.wh-image{display:inline-flex;align-items:center;justify-content:center;line-height:1}
.wh-symbol{display:inline-block;flex:none}
.wh-symbol-missing,.wh-image-refused{display:inline-block;border:1px dashed currentColor;border-radius:4px;padding:0 3px;font-size:9px;line-height:1.4;opacity:.7;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.wh-label{display:inline-flex;flex-direction:row;align-items:center;gap:0.35em}
.wh-link{display:inline-flex;flex-direction:column;cursor:pointer}
.wh-button{display:inline-flex;flex-direction:column;cursor:pointer}
.wh-toggle{flex-direction:row;align-items:center;gap:4px}
.wh-switch{flex:none;position:relative;width:26px;height:16px;border-radius:8px;background:rgba(120,120,128,.36);transition:background .15s}
.wh-switch::after{content:"";position:absolute;top:2px;left:2px;width:12px;height:12px;border-radius:50%;background:#fff;box-shadow:0 1px 2px rgba(0,0,0,.3);transition:left .15s}
.wh-on>.wh-switch{background:#34C759}.wh-on>.wh-switch::after{left:12px}
.wh-shape,.wh-fill{min-width:0;min-height:0}
.wh-accessory-background{border-radius:inherit;background:rgba(255,255,255,.18);min-width:0;min-height:0;width:100%;height:100%}
.wh-gauge-ring{position:relative;width:100%;height:100%;aspect-ratio:1/1;max-width:100%;max-height:100%;display:flex;align-items:center;justify-content:center}
.wh-ring{position:absolute;inset:0;width:100%;height:100%}
.wh-gauge-center{position:relative;display:flex;flex-direction:column;align-items:center;justify-content:center;font-size:0.8em}
.wh-gauge-bounds{position:absolute;left:8%;right:8%;bottom:0;display:flex;justify-content:space-between;font-size:0.5em}
.wh-gauge-linear{display:flex;flex-direction:column;gap:2px;min-width:0}
.wh-gauge-label{font-size:0.8em}
.wh-gauge-row{display:flex;flex-direction:row;align-items:center;gap:4px}
.wh-bar{position:relative;flex:1 1 auto;height:6px;border-radius:3px;background:rgba(128,128,128,.3);overflow:hidden}
.wh-bar-thin{height:4px;border-radius:2px}
.wh-bar-fill{position:absolute;left:0;top:0;bottom:0;border-radius:inherit}
.wh-bar-marker{position:absolute;top:-2px;width:8px;height:8px;margin-left:-4px;border-radius:50%;background:currentColor}
.wh-unknown,.wh-redact,.wh-redact *{color:transparent!important;background:rgba(128,128,128,.3)!important;border-radius:4px}
.wh-unknown{min-width:24px;min-height:12px}
.wh-redact svg,.wh-redact img,.wh-redact .wh-ring{visibility:hidden}
.wh-invalidatable{}
.wh-intent-running .wh-invalidatable>:not(.wh-c),.wh-intent-running .wh-invalidatable>.wh-c>:not(.wh-c),.wh-intent-running .wh-invalidatable>.wh-c>.wh-c>:not(.wh-c),.wh-intent-running .wh-invalidatable>.wh-c>.wh-c>.wh-c>:not(.wh-c){opacity:.35;transition:opacity .15s}
.wh-content-json{position:absolute;inset:0;margin:0;padding:12px;font:11px/1.3 ui-monospace,"DejaVu Sans Mono",monospace;white-space:pre-wrap;overflow:hidden;overflow-wrap:anywhere}
"""
}
