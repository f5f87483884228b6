/// The loading screen: a dark background and a bar filled to the batch's progress.
enum LoadingBar {
    static func draw(on gpu: GPU, fraction: Double) {
        gpu.fill(x: 0, y: 0, width: 1280, height: 720, red: 16, green: 18, blue: 28)
        gpu.fill(x: 340, y: 340, width: 600, height: 40, red: 60, green: 64, blue: 80)
        gpu.fill(x: 344, y: 344, width: Int(592 * min(max(fraction, 0), 1)), height: 32, red: 90, green: 200, blue: 120)
    }
}
