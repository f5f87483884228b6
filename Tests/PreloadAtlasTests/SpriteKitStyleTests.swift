import Preload
import PreloadAtlas
import PreloadPNG
import Testing

@Suite struct SpriteKitStyleTests {
    let coordinator: PreloadCoordinator
    static let fixtures = AtlasDialectTests.fixtures

    init() throws {
        coordinator = try PreloadCoordinator(plugins: [PNGLoader(), AtlasLoader()])
    }

    @Test func preloadedAtlasesHandOutTexturesByName() async throws {
        let atlases = try await SpriteAtlas.preloadTextureAtlases(
            [Self.fixtures + "/texturepacker-array/sheet.json", Self.fixtures + "/folder/chars.atlas"], using: coordinator)
        #expect(atlases.count == 2)
        let hero = try atlases[0].textureNamed("hero")
        #expect(hero.name == "hero.png" && hero.size == (40, 48))
        #expect(try hero.image().pixels == AtlasDialectTests.sprite("hero").pixels)
        #expect(try atlases[1].textureNamed("arrow.png").size == (30, 12))
        #expect(atlases[1].textureNames.count == 6)
        let rect = hero.textureRect  // SpriteKit's unit rectangle, origin bottom left
        #expect(rect.x == Double(hero.frame.rect.x) / 96 && rect.y == 1 - Double(hero.frame.rect.maxY) / 96)
    }

    @Test func aMissingTextureIsAnErrorNotAPlaceholder() async throws {
        let atlas = try await SpriteAtlas.preloadTextureAtlases([Self.fixtures + "/libgdx/sheet.atlas"], using: coordinator)[0]
        #expect(throws: SpriteAtlasError.self) { try atlas.textureNamed("dragon") }
        do {
            _ = try atlas.textureNamed("dragon")
        } catch {
            #expect("\(error)".hasPrefix("no texture named 'dragon' in atlas"))
        }
    }

    @Test func aFailedAtlasFailsThePreloadWithItsCause() async throws {
        await #expect(throws: PreloadFailure.self) {
            try await SpriteAtlas.preloadTextureAtlases([Self.fixtures + "/nowhere.json"], using: coordinator)
        }
        let failure = await #expect(throws: PreloadFailure.self) {
            try await SpriteAtlas.preloadTextureAtlases(
                [Self.fixtures + "/libgdx/sheet.atlas", Self.fixtures + "/sprites/hero.png"], using: coordinator)
        }
        #expect(failure?.errors.count == 1, "a PNG is not an atlas: \(String(describing: failure))")
    }

    @Test func theCompletionHandlerForm() async throws {
        let count = await withCheckedContinuation { continuation in
            SpriteAtlas.preloadTextureAtlases([Self.fixtures + "/spritekit/sheet.atlasc"], using: coordinator) { result in
                continuation.resume(returning: (try? result.get())?.first?.textureNames.count ?? -1)
            }
        }
        #expect(count == 6)
    }
}
