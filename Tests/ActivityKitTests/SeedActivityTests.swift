import ActivityKit
import Foundation
import Testing
import WidgetHostProtocol

// seeds/004 ("Live Activities"), as written there. `DeliveryStatus` is the one type the
// seed uses without showing it.
enum DeliveryStatus: String, Codable, Hashable {
    case preparing, onTheWay, delivered
}

struct PizzaDeliveryAttributes: ActivityAttributes {
    // Static data - set when activity starts, never changes
    struct ContentState: Codable, Hashable {
        // Dynamic data - updated throughout activity lifecycle
        var status: DeliveryStatus
        var estimatedDeliveryTime: Date
        var driverName: String?
    }

    // Static attributes
    var orderNumber: String
    var pizzaType: String
}

/// The seed's calls, compiled as written (they run against a daemon in EndToEndTests).
func seedCalls(storedActivityID: String) async throws {
    let authorizationInfo = ActivityAuthorizationInfo()
    let areActivitiesEnabled = authorizationInfo.areActivitiesEnabled
    _ = areActivitiesEnabled
    let attributes = PizzaDeliveryAttributes(orderNumber: "12345", pizzaType: "Pepperoni")
    let initialState = PizzaDeliveryAttributes.ContentState(
        status: .preparing,
        estimatedDeliveryTime: Date().addingTimeInterval(30 * 60)
    )
    let activity = try Activity.request(
        attributes: attributes,
        content: ActivityContent(state: initialState, staleDate: nil),
        pushType: nil  // or .token for push notifications
    )
    guard let found = Activity<PizzaDeliveryAttributes>.activities
        .first(where: { $0.id == storedActivityID }) else { return }
    let updatedState = PizzaDeliveryAttributes.ContentState(
        status: .onTheWay,
        estimatedDeliveryTime: Date().addingTimeInterval(10 * 60),
        driverName: "John"
    )
    await found.update(
        ActivityContent(
            state: updatedState,
            staleDate: Date().addingTimeInterval(60)  // Mark stale after 1 min
        )
    )
    let updatedContent = ActivityContent(state: updatedState, staleDate: nil)
    await activity.update(updatedContent, alertConfiguration: AlertConfiguration(
        title: "Pizza is here!",
        body: "Your \(attributes.pizzaType) pizza has arrived",
        sound: .default
    ))
    for await state in activity.activityStateUpdates where state == .ended || state == .dismissed { break }
    let finalState = updatedState
    await activity.end(
        ActivityContent(state: finalState, staleDate: nil),
        dismissalPolicy: .default
    )
    await activity.end(nil, dismissalPolicy: .after(Date().addingTimeInterval(3600)))
    await activity.end(nil, dismissalPolicy: .immediate)
    for await pushToken in activity.pushTokenUpdates {
        let tokenString = pushToken.map { String(format: "%02x", $0) }.joined()
        _ = tokenString
    }
    do {
        _ = try Activity.request(attributes: attributes, content: updatedContent, pushType: .token)
    } catch ActivityAuthorizationError.attributesTooLarge {
    } catch ActivityAuthorizationError.targetMaximumExceeded {
    } catch ActivityAuthorizationError.denied {
    }
}

@Suite("ActivityKit: the seed's code and the JSON it sends")
struct SeedActivityTests {
    @Test("The seed's attributes type is named as pushes name it, and its state travels as JSON and back")
    func contentRoundTrip() throws {
        #expect(Activity<PizzaDeliveryAttributes>.attributesType == "PizzaDeliveryAttributes")
        let state = PizzaDeliveryAttributes.ContentState(
            status: .onTheWay, estimatedDeliveryTime: Date(timeIntervalSince1970: 1_771_113_600), driverName: "John")
        let payload = try Activity<PizzaDeliveryAttributes>.payload(
            ActivityContent(state: state, staleDate: Date(timeIntervalSince1970: 1_771_113_660), relevanceScore: 50))
        #expect(
            payload.state
                == ["status": "onTheWay", "estimatedDeliveryTime": "2026-02-15T00:00:00Z", "driverName": "John"])
        #expect(payload.relevanceScore == 50)
        let back = try Activity<PizzaDeliveryAttributes>.content(payload)
        #expect(back.state == state)
        #expect(back.staleDate == Date(timeIntervalSince1970: 1_771_113_660))
    }

    @Test("The daemon's refusal reasons become ActivityAuthorizationError with Apple's names")
    func errors() {
        for (reason, error) in [
            ("attributesTooLarge", ActivityAuthorizationError.attributesTooLarge), ("denied", .denied),
            ("targetMaximumExceeded", .targetMaximumExceeded),
        ] {
            #expect(ActivityAuthorizationError(reason: reason, message: "") == error)
        }
        #expect(ActivityAuthorizationError(reason: "other", message: "why") == .persistenceFailure("why"))
    }

    @Test("Without a daemon, request throws with the socket named and activities is empty")
    func noDaemon() {
        ActivityHost.shared.appIdentifier = "com.example.pizza"
        ActivityHost.shared.socketPath = "/nonexistent/widgethost.sock"
        #expect(Activity<PizzaDeliveryAttributes>.activities.isEmpty)
        #expect(!ActivityAuthorizationInfo().areActivitiesEnabled)
        #expect {
            _ = try Activity.request(
                attributes: PizzaDeliveryAttributes(orderNumber: "1", pizzaType: "Margherita"),
                content: ActivityContent(
                    state: PizzaDeliveryAttributes.ContentState(status: .preparing, estimatedDeliveryTime: Date()),
                    staleDate: nil))
        } throws: { error in
            "\(error)".contains("/nonexistent/widgethost.sock")
        }
    }
}
