import Preload
import PreloadGLReadback
import Testing

/// The harness itself: what it reports about formats and how it refuses bad requests.
@Suite(.enabled(if: ReadbackCase.available, "needs libEGL and a Mesa driver (libegl1, libegl-mesa0, libgl1-mesa-dri)"))
struct GLReadbackTests {
    /// Every block format Preload bakes is one the harness can check, in both APIs and both
    /// colour spaces (llvmpipe has them all; a driver without one fails here, naming it).
    @Test(arguments: [GLReadback.API.desktopCore, .es]) func everyBakedFormatIsSupported(_ api: GLReadback.API) throws {
        let context = try (api == .es ? GLReadback.es : GLReadback.desktop).get()
        for format in PixelFormat.allCases where format != .rgba16 {
            for colorSpace in [ColorSpace.linear, .sRGB] {
                let internalFormat = format.glInternalFormat(colorSpace: colorSpace)
                #expect(context.supports(internalFormat: internalFormat), "\(format) \(colorSpace) (0x\(String(internalFormat, radix: 16)))")
            }
        }
        #expect(!context.supports(internalFormat: 0x1234))
    }

    @Test func badRequestsAreTypedErrors() throws {
        let desktop = try GLReadback.desktop.get()
        let bc7Block = [UInt8](repeating: 0, count: 16)
        #expect(throws: GLReadbackError.self) {
            try desktop.readBack(format: .bc7, colorSpace: .linear, width: 8, height: 4, pixels: bc7Block)
        }
        do {
            _ = try desktop.readBack(format: .bc7, colorSpace: .linear, width: 8, height: 4, pixels: bc7Block)
        } catch {
            #expect(error.kind == .badArgument && error.message.contains("16 bytes given") && !error.isUnavailable)
        }
        do {
            _ = try desktop.readBack(internalFormat: 0x1234, width: 4, height: 4, pixels: bc7Block)
        } catch {
            #expect(error.kind == .badArgument && error.message.contains("0x1234"))
        }
        do {
            _ = try desktop.readBack(format: .bc7, colorSpace: .linear, width: 4, height: 4, mipLevelCount: 4, pixels: bc7Block)
        } catch {
            #expect(error.kind == .badArgument)
        }
        let es = try GLReadback.es.get()
        do {
            _ = try es.readBack(format: .bc7, colorSpace: .linear, width: 4, height: 4, pixels: bc7Block, method: .getTexImage)
        } catch {
            #expect(error.kind == .badArgument && error.message.contains("glGetTexImage"))
        }
    }

    @Test func contextsNameTheirDriver() throws {
        #expect(try GLReadback.desktop.get().driver.contains("4.5"))
        #expect(try GLReadback.es.get().driver.contains("OpenGL ES 3.2"))
        let compatibility = try GLReadback.open(api: .desktopCompatibility)
        #expect(compatibility.driver.contains("Compatibility"))
    }
}
